import Foundation

/// Objects a save found sharing the values of a uniqueness constraint — with a stored row, or
/// with each other — as Core Data's `NSConstraintConflict`. The ``MergePolicy/error`` policy
/// throws these in ``ObjectGraphError/constraintConflicts``; the other policies resolve them
/// (see ``MergePolicy``).
///
/// Snapshots hold attributes (as their Swift values) and to-one relationships (as
/// ``ManagedObjectID``s), by property name; a `nil` value is absent.
public struct ConstraintConflict: Sendable, CustomStringConvertible {
    /// The entity that declares the constraint.
    public let entityName: String
    /// The constraint's property names, as in ``EntityDescription/uniquenessConstraints``.
    public let constraint: [String]
    /// The shared values, by property name.
    public let constraintValues: [String: any Sendable]
    /// The stored object with these values; `nil` when the conflict is among the saving
    /// context's own objects only (Core Data's `databaseObject`).
    public let databaseObjectID: ManagedObjectID?
    /// The stored object's values; `nil` with ``databaseObjectID``.
    public let databaseSnapshot: [String: any Sendable]?
    /// The saving context's objects with these values, in save order (Core Data's
    /// `conflictingObjects`).
    public let conflictingObjectIDs: [ManagedObjectID]
    /// Their values in the saving context, in the same order.
    public let conflictingSnapshots: [[String: any Sendable]]

    /// A readable summary, for errors and logs.
    public var description: String {
        let values = constraint.map { "\($0) = \(constraintValues[$0].map { "'\($0)'" } ?? "nil")" }.joined(separator: ", ")
        let objects = conflictingObjectIDs.map { $0.uriRepresentation().absoluteString }.joined(separator: ", ")
        let stored = databaseObjectID.map { " and the stored \($0.uriRepresentation().absoluteString)" } ?? ""
        return "\(entityName) (\(values)) is shared by \(objects)\(stored)"
    }
}
