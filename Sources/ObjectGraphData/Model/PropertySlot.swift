import Foundation
import ObjectGraph
import Synchronization

/// A persisted property's place in its model's managed objects, looked up once per entity:
/// `@Model`'s accessors read through it (one per property, a static of the class). Not used
/// directly.
///
/// A property whose Swift type is an attribute's own (`Int64`, `String`, `Double`, `Date`, …,
/// or an optional of one) is read with ObjectGraph's typed access, as `@Managed` reads it: no
/// lookup by name, no `Any` box and cast; so is `Int` (and `Int?`), stored as integer 64. Other
/// types (enums, `Codable` values, models) take the general path, which converts.
public final class _PropertySlot: Sendable {
    /// ObjectGraph's slot cache for the property.
    let managed: ManagedPropertySlot
    /// How the property's Swift type reads (a ``Reading``'s raw value; 0 not known yet).
    private let typed = Atomic<UInt8>(0)

    /// How a property reads.
    enum Reading: UInt8 {
        /// Typed, as the attribute's own Swift type.
        case attribute = 1
        /// Through the general path, which converts.
        case general
        /// `Int`: typed as the `Int64` it is stored as.
        case int
        /// `Int?`: typed as the `Int64?` it is stored as.
        case optionalInt
    }

    /// The slot of the property named `key`.
    public init(_ key: String) {
        managed = ManagedPropertySlot(key)
    }

    /// How values of type `Value` read (worked out on first use; a property always reads as
    /// one type).
    @inline(__always)
    func reading<Value>(_: Value.Type) -> Reading {
        if let known = Reading(rawValue: typed.load(ordering: .relaxed)) { return known }
        let answer: Reading =
            Self.isAttributeType(Value.self) ? .attribute
            : Value.self == Int.self ? .int : Value.self == Int?.self ? .optionalInt : .general
        typed.store(answer.rawValue, ordering: .relaxed)
        return answer
    }

    /// Whether `Value` is the Swift type of an ObjectGraph attribute ObjectGraph reads typed.
    private static func isAttributeType<Value>(_: Value.Type) -> Bool {
        Value.self == Int64.self || Value.self == Int64?.self || Value.self == Int32.self || Value.self == Int32?.self
            || Value.self == Int16.self || Value.self == Int16?.self || Value.self == Double.self || Value.self == Double?.self
            || Value.self == Float.self || Value.self == Float?.self || Value.self == String.self || Value.self == String?.self
            || Value.self == Bool.self || Value.self == Bool?.self || Value.self == Date.self || Value.self == Date?.self
    }
}
