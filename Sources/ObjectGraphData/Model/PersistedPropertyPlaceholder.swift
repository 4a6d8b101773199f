/// What the init accessor of a `@Model` class's persisted property initializes (a stored
/// peer `_$title` of this type per property, written by `@Model`); not used directly.
///
/// An empty struct takes no room, and definite initialization tracks it: every initializer
/// must set each persisted property (or give it a default; an optional one is `nil` unless
/// set), as for a stored property, and an assignment made before `self` is fully initialized
/// runs the init accessor — the value goes straight into the new model's backing data. A
/// `Void` peer counted as initialized from the start, so neither held.
public struct _PersistedPropertyPlaceholder: Sendable {
    /// The placeholder (it holds nothing).
    @inlinable public init() {}
}
