import Foundation
public import ObjectGraph

/// A persisted property's place in its model's managed objects, looked up once per entity:
/// `@Model`'s accessors read and write through it (one per property, a static of the class).
/// Not used directly; a slot must live as long as the program (a new model's kept values
/// refer to it unowned), as a static does.
///
/// A property whose Swift type is an attribute's own (`Int64`, `String`, `Double`, `Date`, …,
/// an optional of one, or `Int`) is read and written with ObjectGraph's typed access, as
/// `@Managed` does (see ``_ModelAttributeValue``); other types (enums, `Codable` values,
/// models) take the general path, which converts.
public final class _PropertySlot: Sendable {
    /// ObjectGraph's slot cache for the property.
    @usableFromInline let managed: ManagedPropertySlot

    /// The slot of the property named `key`.
    public init(_ key: String) {
        managed = ManagedPropertySlot(key)
    }
}
