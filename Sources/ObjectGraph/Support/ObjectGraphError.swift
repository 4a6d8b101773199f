import Foundation

/// An error from a context, a store or a save: what went wrong, and where.
///
/// Core Data reports these as `NSError`s in `NSCocoaErrorDomain`; ``code`` keeps Core Data's
/// names so a port can match on them. A save with invalid objects throws one error with code
/// ``Code/validationMultipleErrors`` whose ``failures`` lists every object and key at fault.
public struct ObjectGraphError: Error, Sendable, CustomStringConvertible {
    /// What kind of error this is.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// A short identifier, e.g. `"validationMultipleErrors"`.
        public let name: String
        /// Core Data's `NSError` code for this kind of error in `NSCocoaErrorDomain` (e.g.
        /// 133020 for `NSManagedObjectMergeError`), or `nil` where Core Data has none (it
        /// raises an exception instead, or has no such error).
        public let coreDataCode: Int?
        init(_ name: String, _ coreDataCode: Int? = nil) {
            self.name = name
            self.coreDataCode = coreDataCode
        }
        /// A readable summary, for logs and debugging.
        public var description: String { name }

        /// One or more objects failed validation at save; see ``ObjectGraphError/failures``.
        public static let validationMultipleErrors = Code("validationMultipleErrors", 1560)
        /// A delete was refused by a `.deny` delete rule.
        public static let validationRelationshipDeniedDelete = Code("validationRelationshipDeniedDelete", 1600)
        /// A save would break a uniqueness constraint.
        public static let constraintConflict = Code("managedObjectConstraintMerge", 133021)
        /// A save found objects changed in the store since they were read, and the context's
        /// merge policy is ``MergePolicy/error`` (Core Data's `NSManagedObjectMergeError`);
        /// ``ObjectGraphError/conflicts`` lists them.
        public static let managedObjectMerge = Code("managedObjectMerge", 133020)
        /// The store was written with another model; ``ObjectGraphError/differences`` lists how.
        public static let persistentStoreIncompatibleVersionHash = Code("persistentStoreIncompatibleVersionHash", 134100)
        /// A store could not be migrated to the model's version (Core Data's
        /// `NSMigrationError`); ``ObjectGraphError/differences`` lists every change that could not
        /// be migrated, with entity and property. The store was left as it was.
        public static let migrationFailed = Code("migrationError", 134110)
        /// The model asks of the store what it cannot keep (Core Data's
        /// `NSPersistentStoreIncompatibleSchemaError`): a derived attribute whose derivation
        /// is not one the store evaluates. The message names the attribute and the expression.
        public static let persistentStoreIncompatibleSchema = Code("persistentStoreIncompatibleSchema", 134020)
        /// The file is not a store, or is damaged.
        public static let persistentStoreInvalidType = Code("persistentStoreInvalidType", 134000)
        /// The store could not be opened or written.
        public static let persistentStoreOperation = Code("persistentStoreOperation", 134070)
        /// No entity has the given name.
        public static let entityNotFound = Code("entityNotFound")
        /// An entity has no property with the given key.
        public static let unknownKey = Code("unknownKey")
        /// A value does not have the type its attribute or relationship expects.
        public static let typeMismatch = Code("typeMismatch")
        /// No object exists with the given ID.
        public static let objectNotFound = Code("managedObjectReferentialIntegrity", 133000)
        /// The context has no persistent store to work with.
        public static let noPersistentStore = Code("noPersistentStore")
        /// The request cannot be carried out as asked.
        public static let invalidRequest = Code("invalidRequest")
        /// A fetched results controller's sections are not contiguous in its sort order.
        public static let sectionsNotContiguous = Code("sectionsNotContiguous")
        /// A file or folder is not a model ObjectGraph can read (an Xcode model that is
        /// malformed, of the pre-Xcode 4 format, or not a model at all); the message names it.
        public static let invalidModelFile = Code("invalidModelFile")
    }

    /// What kind of error this is.
    public let code: Code
    /// A sentence naming what went wrong and where.
    public let message: String
    /// For validation errors: every failing object and key.
    public let failures: [ValidationFailure]
    /// For an incompatible store: each difference between the store's model and this one; for
    /// a failed migration: each change that could not be migrated.
    public let differences: [String]
    /// For ``Code/managedObjectMerge``: each conflicting object, with what changed in the
    /// store (Core Data's `conflictList`).
    public let conflicts: [MergeConflict]
    /// For ``Code/constraintConflict``: each uniqueness constraint the save breaks, with the
    /// stored and the saving context's objects that share its values (Core Data's
    /// `NSPersistentStoreSaveConflictsErrorKey` list of `NSConstraintConflict`s).
    public let constraintConflicts: [ConstraintConflict]
    /// The SQLite or file-system error underneath, described.
    public let underlyingError: String?
    /// The store failure underneath, with its SQLite result code, statement and file — so a
    /// caller can tell a busy database from a full disk. `nil` for errors of the caller's
    /// making (validation, unknown keys, bad requests).
    public let cause: StoreFailure?

    package init(
        _ code: Code,
        _ message: String,
        failures: [ValidationFailure] = [],
        differences: [String] = [],
        conflicts: [MergeConflict] = [],
        constraintConflicts: [ConstraintConflict] = [],
        underlying: (any Error)? = nil,
        file: String? = nil
    ) {
        self.code = code
        self.message = message
        self.failures = failures
        self.differences = differences
        self.conflicts = conflicts
        self.constraintConflicts = constraintConflicts
        self.underlyingError = underlying.map { String(describing: $0) }
        self.cause =
            underlying.map { StoreFailure($0, file: file) }
            ?? file.map { StoreFailure(extendedResultCode: nil, message: message, sql: nil, file: $0) }
    }

    /// A readable summary, for logs and debugging.
    public var description: String {
        var text = message
        if !failures.isEmpty { text += "\n" + failures.map { "  - \($0)" }.joined(separator: "\n") }
        if !differences.isEmpty { text += "\n" + differences.map { "  - \($0)" }.joined(separator: "\n") }
        if !conflicts.isEmpty { text += "\n" + conflicts.map { "  - \($0)" }.joined(separator: "\n") }
        if !constraintConflicts.isEmpty { text += "\n" + constraintConflicts.map { "  - \($0)" }.joined(separator: "\n") }
        if let underlyingError { text += "\n  (\(underlyingError))" }
        return text
    }
}

/// One validation failure: which object, which key, and why.
public struct ValidationFailure: Sendable, Hashable, CustomStringConvertible {
    /// The failing object.
    public let objectID: ManagedObjectID
    /// Its entity's name.
    public let entityName: String
    /// The property at fault, or `nil` for an object-level rule.
    public let key: String?
    /// Why the value is invalid.
    public let message: String
    /// Whether a `.deny` delete rule refused the object's deletion (the error's code says so
    /// when it is the only failure).
    var deniesDelete = false

    /// Creates a failure; a `validateForInsert()`/`validateForUpdate()` override can throw one.
    public init(objectID: ManagedObjectID, entityName: String, key: String?, message: String) {
        self.objectID = objectID
        self.entityName = entityName
        self.key = key
        self.message = message
    }

    /// A readable summary, for logs and debugging.
    public var description: String {
        "\(entityName)\(key.map { ".\($0)" } ?? "") (\(objectID.uriRepresentation().absoluteString)): \(message)"
    }
}

extension ValidationFailure: Error {}
