import Foundation
import ObjectGraph
import Synchronization

/// A persisted property's place in its model's managed objects, looked up once per entity:
/// `@Model`'s accessors read through it (one per property, a static of the class). Not used
/// directly.
///
/// A property whose Swift type is an attribute's own (`Int64`, `String`, `Double`, `Date`, …,
/// or an optional of one) is read with ObjectGraph's typed access, as `@Managed` reads it: no
/// lookup by name, no `Any` box and cast. Other types (`Int`, enums, `Codable` values, models)
/// take the general path, which converts.
public final class _PropertySlot: Sendable {
    /// ObjectGraph's slot cache for the property.
    let managed: ManagedPropertySlot
    /// Whether the property's Swift type reads typed: 0 not known yet, 1 yes, 2 no.
    private let typed = Atomic<UInt8>(0)

    /// The slot of the property named `key`.
    public init(_ key: String) {
        managed = ManagedPropertySlot(key)
    }

    /// Whether values of type `Value` read through ObjectGraph's typed access (worked out on
    /// first use; a property always reads as one type).
    @inline(__always)
    func readsTyped<Value>(_: Value.Type) -> Bool {
        switch typed.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default:
            let answer = Self.isAttributeType(Value.self)
            typed.store(answer ? 1 : 2, ordering: .relaxed)
            return answer
        }
    }

    /// Whether `Value` is the Swift type of an ObjectGraph attribute ObjectGraph reads typed.
    private static func isAttributeType<Value>(_: Value.Type) -> Bool {
        Value.self == Int64.self || Value.self == Int64?.self || Value.self == Int32.self || Value.self == Int32?.self
            || Value.self == Int16.self || Value.self == Int16?.self || Value.self == Double.self || Value.self == Double?.self
            || Value.self == Float.self || Value.self == Float?.self || Value.self == String.self || Value.self == String?.self
            || Value.self == Bool.self || Value.self == Bool?.self || Value.self == Date.self || Value.self == Date?.self
    }
}
