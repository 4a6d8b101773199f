extension PropertyDescription: Hashable {
    /// Whether two descriptions are the same instance, as Core Data's `NSPropertyDescription`
    /// (an `NSObject`) compares; lets a description be a dictionary key, as in
    /// ``BatchUpdateRequest/propertiesToUpdate``.
    public static func == (lhs: PropertyDescription, rhs: PropertyDescription) -> Bool { lhs === rhs }

    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
