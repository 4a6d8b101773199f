/// A save refused because objects it inserts or updates have the uniqueness-constrained
/// values of stored rows, or of each other; nothing was written. The context resolves it with
/// its merge policy (see `ManagedObjectContext+Uniqueness.swift`).
package struct UniquenessConflictFailure: Error, Sendable {
    /// One constraint two or more objects share values of.
    package struct Conflict: Sendable {
        /// The entity that declares the constraint.
        let entityName: String
        /// The constraint's property names.
        let constraint: [String]
        /// The stored row with those values; `nil` when the conflict is among the save's own
        /// objects only.
        let databaseObjectID: ManagedObjectID?
        /// The save's objects with those values, in save order.
        let conflictingObjectIDs: [ManagedObjectID]
    }
    let conflicts: [Conflict]
}
