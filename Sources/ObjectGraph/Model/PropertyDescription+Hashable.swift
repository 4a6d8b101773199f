/// Property descriptions are equal when they are the same description (identity), as Core
/// Data's `NSPropertyDescription` objects are in a `Set` — what
/// ``PersistentHistoryChange/updatedProperties`` needs.
extension PropertyDescription: Hashable {
    /// Whether `lhs` and `rhs` are the same description.
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool { lhs === rhs }

    /// Hashes the description's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
