/// Property descriptions are equal when they are the same description (identity), as Core
/// Data's `NSPropertyDescription` objects (`NSObject`s) compare: what
/// ``PersistentHistoryChange/updatedProperties`` and ``BatchUpdateRequest/propertiesToUpdate``
/// (a description as a dictionary key) need.
extension PropertyDescription: Hashable {
    /// Whether `lhs` and `rhs` are the same description.
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool { lhs === rhs }

    /// Hashes the description's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
