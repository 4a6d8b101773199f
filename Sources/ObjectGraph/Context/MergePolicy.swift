import Foundation

/// How a save resolves optimistic-locking conflicts, as Core Data's `NSMergePolicy`.
///
/// A save conflicts when an object it updates or deletes changed in the store since its
/// context read it (another context saved it; every saved change of an object bumps the row's
/// version, Core Data's `Z_OPT`). Conflicts are detected per object, inside the save's write
/// transaction; the policy of the saving context decides what happens:
///
/// - ``error`` (the default): the save throws ``ObjectGraphError/Code/managedObjectMerge``
///   listing every ``MergeConflict`` and writes nothing; the context keeps its changes.
/// - ``mergeByPropertyStoreTrump``: property by property, what the other save changed wins;
///   this context's changes to other properties are saved.
/// - ``mergeByPropertyObjectTrump``: property by property, this context's changes win; the
///   other save's changes to other properties are kept.
/// - ``overwrite``: this context's whole object is written over the store's row.
/// - ``rollback``: this context's changes to conflicting objects are discarded (the objects
///   take the store's values); its other changes are saved.
///
/// Under every policy but ``error``, an object deleted in the store stays deleted (this
/// context's copy is deleted too: a row cannot be brought back by an update), and an object
/// this context deletes is deleted whatever the other save changed. To-many changes are saved
/// as additions and removals of members, merged with the store's under every trumping policy.
/// Uniqueness-constraint conflicts (inserted objects sharing a constraint's values with a
/// stored object or with each other) follow the same policies, as Core Data's upsert: under
/// ``error`` the save throws ``ObjectGraphError/Code/constraintConflict`` with
/// ``ObjectGraphError/constraintConflicts``; otherwise each conflicting insert is merged into
/// the object that stays (the stored one, or the first insert) and deleted, its relationships
/// moved to it — object trump takes the values the insert set, store trump only what the stored
/// object lacks, overwrite all of the insert's values, rollback none.
///
/// ```swift
/// context.mergePolicy = .mergeByPropertyObjectTrump
/// ```
public struct MergePolicy: Sendable, Hashable, CustomStringConvertible {
    /// The policy's name (Core Data's, for the built-in ones).
    public let name: String
    /// The built-in behaviour: a custom policy's closure runs first, then what is left is
    /// resolved with this.
    let type: MergePolicyType
    /// A custom policy's closure.
    let resolver: Resolver?

    /// A custom policy's conflict handler (see ``init(name:resolve:)``).
    public typealias Resolver = @Sendable (_ conflicts: [MergeConflict], _ context: ManagedObjectContext) throws -> Void

    /// A built-in policy, as Core Data's `NSMergePolicy(merge:)`.
    public init(merge type: MergePolicyType) {
        self.name = type.policyName
        self.type = type
        self.resolver = nil
    }

    /// A custom policy, as a Core Data `NSMergePolicy` subclass overriding
    /// `resolve(optimisticLockingConflicts:)`.
    ///
    /// `resolve` runs on the saving context's queue with the conflicts (the source objects
    /// are registered in `context`: `context.object(with: conflict.sourceObjectID)`), and with
    /// no lock of the store held: another context may save meanwhile, and when that save
    /// changed the same objects again, the next attempt meets new conflicts and `resolve` is
    /// called again (at most ten times; it must not save `context` itself). It may
    /// change those objects — set the values to save — or throw to fail the save (nothing is
    /// written, the changes stay). Then each conflicting object is brought to the store's
    /// version with ``mergeByPropertyObjectTrump``: the values the object holds as changed
    /// (yours, and the ones `resolve` set) are saved; its other properties take the store's
    /// values.
    ///
    /// ```swift
    /// context.mergePolicy = MergePolicy(name: "highest views") { conflicts, context in
    ///     for conflict in conflicts {
    ///         guard let photo = context.registeredObject(for: conflict.sourceObjectID) as? Photo,
    ///             let stored = conflict.persistedSnapshot?["views"] as? Int64
    ///         else { continue }
    ///         photo.views = max(photo.views, stored)
    ///     }
    /// }
    /// ```
    public init(name: String, resolve: @escaping Resolver) {
        self.name = name
        self.type = .mergeByPropertyObjectTrumpMergePolicyType
        self.resolver = resolve
    }

    /// Conflicts are errors (Core Data's default).
    public static let error = MergePolicy(merge: .errorMergePolicyType)
    /// The context's changed properties win over the store's, property by property.
    public static let mergeByPropertyObjectTrump = MergePolicy(merge: .mergeByPropertyObjectTrumpMergePolicyType)
    /// The store's changed properties win over the context's, property by property.
    public static let mergeByPropertyStoreTrump = MergePolicy(merge: .mergeByPropertyStoreTrumpMergePolicyType)
    /// The context's objects overwrite the store's rows entirely.
    public static let overwrite = MergePolicy(merge: .overwriteMergePolicyType)
    /// The context's changes to conflicting objects are discarded.
    public static let rollback = MergePolicy(merge: .rollbackMergePolicyType)

    /// The policy's type: the built-in behaviour (a custom policy reports
    /// ``MergePolicyType/mergeByPropertyObjectTrumpMergePolicyType``, what follows its closure).
    public var mergeType: MergePolicyType { type }

    /// A readable summary, for logs and debugging.
    public var description: String { "MergePolicy.\(name)" }

    /// Policies are equal when their names and types are (a custom policy is known by its name).
    public static func == (lhs: MergePolicy, rhs: MergePolicy) -> Bool {
        lhs.name == rhs.name && lhs.type == rhs.type && (lhs.resolver == nil) == (rhs.resolver == nil)
    }

    /// Hashes the name and type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(type)
    }
}

/// The built-in merge policies, as Core Data's `NSMergePolicyType`, with its raw values
/// (0 to 4, in Core Data's order), so a type stored or sent as a number means the same.
public enum MergePolicyType: UInt, Sendable, Hashable {
    /// Conflicts are errors (Core Data's `NSErrorMergePolicyType`, 0).
    case errorMergePolicyType = 0
    /// Property by property, the store's changes win (1).
    case mergeByPropertyStoreTrumpMergePolicyType = 1
    /// Property by property, the context's changes win (2).
    case mergeByPropertyObjectTrumpMergePolicyType = 2
    /// The context's whole object overwrites the store's row (3).
    case overwriteMergePolicyType = 3
    /// The context's changes to conflicting objects are discarded (4).
    case rollbackMergePolicyType = 4

    var policyName: String {
        switch self {
        case .errorMergePolicyType: "error"
        case .mergeByPropertyStoreTrumpMergePolicyType: "mergeByPropertyStoreTrump"
        case .mergeByPropertyObjectTrumpMergePolicyType: "mergeByPropertyObjectTrump"
        case .overwriteMergePolicyType: "overwrite"
        case .rollbackMergePolicyType: "rollback"
        }
    }
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
