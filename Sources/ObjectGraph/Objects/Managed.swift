/// Declares a typed property of a ``ManagedObject`` subclass, stored under its own name — the
/// counterpart of Core Data's `@NSManaged`. The name is typed once:
///
/// ```swift
/// final class Photo: ManagedObject {
///     @Managed var title: String?              // attribute "title"
///     @Managed var views: Int64                // a nil value reads as 0
///     @Managed var photographer: Photographer? // to-one relationship
///     @Managed var tags: Set<Tag>              // to-many ([Tag] when ordered)
/// }
/// ```
///
/// Reading and writing go through ``ManagedObject/value(forKey:)`` and
/// ``ManagedObject/setValue(_:forKey:)``, with their checks: a value of the wrong type is
/// never stored and makes the next save throw.
@attached(accessor)
@attached(peer, names: prefixed(_managedSlot_))
public macro Managed() = #externalMacro(module: "ObjectGraphMacros", type: "ManagedMacro")

/// Declares a typed property of a ``ManagedObject`` subclass stored under the model's property
/// `key` — for a model property whose name the Swift property cannot take (it would clash with
/// a member of ``ManagedObject`` or of a protocol the class adopts):
///
/// ```swift
/// final class Item: ManagedObject {
///     @Managed("hashValue") var storedHashValue: Int64   // the model keeps "hashValue"
/// }
/// ```
@attached(accessor)
@attached(peer, names: prefixed(_managedSlot_))
public macro Managed(_ key: String) = #externalMacro(module: "ObjectGraphMacros", type: "ManagedMacro")
