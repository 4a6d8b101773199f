import Foundation

/// How a save resolves conflicts, as Core Data's `NSMergePolicy`.
///
/// Only ``error`` is carried out today: a save that breaks a uniqueness constraint throws
/// ``ObjectGraphError/Code/constraintConflict`` and writes nothing, whatever policy is set — so
/// a port that sets a trumping policy compiles and loses no data, but still sees the conflict.
/// The other policies arrive with the merge-policy work.
public struct MergePolicy: Sendable, Hashable, CustomStringConvertible {
    /// The policy's Core Data name.
    public let name: String

    /// Conflicts are errors (Core Data's default).
    public static let error = MergePolicy(name: "error")
    /// The context's changed properties win over the store's, property by property.
    public static let mergeByPropertyObjectTrump = MergePolicy(name: "mergeByPropertyObjectTrump")
    /// The store's values win over the context's, property by property.
    public static let mergeByPropertyStoreTrump = MergePolicy(name: "mergeByPropertyStoreTrump")
    /// The context's objects overwrite the store's.
    public static let overwrite = MergePolicy(name: "overwrite")
    /// The context's conflicting changes are discarded.
    public static let rollback = MergePolicy(name: "rollback")

    /// A readable summary, for logs and debugging.
    public var description: String { "MergePolicy.\(name)" }
}

/// Core Data's `NSErrorMergePolicy`.
public let ErrorMergePolicy = MergePolicy.error
/// Core Data's `NSMergeByPropertyObjectTrumpMergePolicy`.
public let MergeByPropertyObjectTrumpMergePolicy = MergePolicy.mergeByPropertyObjectTrump
/// Core Data's `NSMergeByPropertyStoreTrumpMergePolicy`.
public let MergeByPropertyStoreTrumpMergePolicy = MergePolicy.mergeByPropertyStoreTrump
/// Core Data's `NSOverwriteMergePolicy`.
public let OverwriteMergePolicy = MergePolicy.overwrite
/// Core Data's `NSRollbackMergePolicy`.
public let RollbackMergePolicy = MergePolicy.rollback
