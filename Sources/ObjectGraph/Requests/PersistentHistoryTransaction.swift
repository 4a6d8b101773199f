public import Foundation

/// One save recorded in a store's persistent history, as Core Data's
/// `NSPersistentHistoryTransaction`: who saved, when, and what changed.
///
/// Fetch transactions with ``PersistentHistoryChangeRequest``. To bring a context up to date
/// with a transaction another process (or another coordinator) saved, merge its
/// ``objectIDNotification()``:
///
/// ```swift
/// for transaction in transactions {
///     context.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
///     lastToken = transaction.token
/// }
/// ```
public final class PersistentHistoryTransaction: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: immutable once the request that fetched it returns it (`changes` is
    // set while the fetch builds it).

    /// When the save was written.
    public let timestamp: Date
    /// The changes the save made, in the order they were recorded; `nil` when the request's
    /// ``PersistentHistoryChangeRequest/resultType`` asked for transactions only.
    public package(set) var changes: [PersistentHistoryChange]?
    /// The saving context's ``ManagedObjectContext/transactionAuthor``.
    public let author: String?
    /// The saving process's bundle identifier (its process name where it has none).
    public let bundleID: String
    /// The saving process's identifier.
    public let processID: String
    /// The saving context's ``ManagedObjectContext/name``.
    public let contextName: String?
    /// The identifier of the store the save was written to.
    public let storeID: String
    /// The transaction's number: unique in its store, and larger for every later save.
    public let transactionNumber: Int64

    package init(
        timestamp: Date,
        author: String?,
        bundleID: String,
        processID: String,
        contextName: String?,
        storeID: String,
        transactionNumber: Int64
    ) {
        self.timestamp = timestamp
        self.author = author
        self.bundleID = bundleID
        self.processID = processID
        self.contextName = contextName
        self.storeID = storeID
        self.transactionNumber = transactionNumber
    }

    /// The position right after this transaction: fetch history after it to get what was
    /// saved later.
    public var token: PersistentHistoryToken {
        PersistentHistoryToken(storeIdentifier: storeID, transactionNumber: transactionNumber)
    }

    /// The transaction's changes by object ID, as a saving context's did-save payload: merge it
    /// with ``ManagedObjectContext/mergeChanges(fromContextDidSave:)-(ContextDidSave)``. Empty
    /// when the transaction was fetched without its changes.
    public var contextDidSave: ContextDidSave {
        var inserted: Set<ManagedObjectID> = []
        var updated: Set<ManagedObjectID> = []
        var deleted: Set<ManagedObjectID> = []
        for change in changes ?? [] {
            switch change.changeType {
            case .insert: inserted.insert(change.changedObjectID)
            case .update: updated.insert(change.changedObjectID)
            case .delete: deleted.insert(change.changedObjectID)
            }
        }
        // An object inserted and changed again later in the same transaction is an insert.
        updated.subtract(inserted)
        return ContextDidSave(insertedObjectIDs: inserted, updatedObjectIDs: updated, deletedObjectIDs: deleted)
    }

    /// A did-save notification carrying this transaction's changes by object ID, as Core Data's
    /// `objectIDNotification()`: hand it to
    /// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)-(Notification)`` on the
    /// context's queue.
    ///
    /// Its user info holds the ``contextDidSave`` payload under
    /// ``ManagedObjectContext/didSaveKey`` and the sets of IDs under Core Data's keys
    /// `"inserted_objectIDs"`, `"updated_objectIDs"` and `"deleted_objectIDs"`
    /// (``ManagedObjectContext/NotificationKey``). A `Notification` is not `Sendable`: create it
    /// on the queue that merges it (or cross queues with ``contextDidSave``).
    public func objectIDNotification() -> Notification {
        let saved = contextDidSave
        return Notification(
            name: .managedObjectContextDidSave,
            object: nil,
            userInfo: saved.notificationUserInfo
        )
    }

    /// A readable summary, for logs and debugging.
    public var description: String {
        "PersistentHistoryTransaction(\(transactionNumber), author: \(author ?? "nil"), context: \(contextName ?? "nil"), \(changes.map { "\($0.count) changes" } ?? "changes not fetched"))"
    }
}

/// What kind of change a ``PersistentHistoryChange`` records, as Core Data's
/// `NSPersistentHistoryChangeType`.
public enum PersistentHistoryChangeType: Int, Sendable, Hashable {
    /// The object was inserted.
    case insert = 0
    /// The object's values or relationships changed; see
    /// ``PersistentHistoryChange/updatedProperties``.
    case update = 1
    /// The object was deleted; see ``PersistentHistoryChange/tombstone``.
    case delete = 2
}

/// One object's change in a ``PersistentHistoryTransaction``, as Core Data's
/// `NSPersistentHistoryChange`.
public final class PersistentHistoryChange: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: immutable; the tombstone holds attribute values (strings, numbers,
    // dates, data, UUIDs, URLs), and the property descriptions belong to a frozen model.

    /// The change's number: unique in its store, larger for every later change.
    public let changeID: Int64
    /// The object that changed.
    public let changedObjectID: ManagedObjectID
    /// Whether the object was inserted, updated or deleted.
    public let changeType: PersistentHistoryChangeType
    /// For a delete: the values the object had of the attributes marked
    /// ``AttributeDescription/preservesValueInHistoryOnDeletion``, by attribute name (an
    /// attribute whose value was `nil` is absent); `nil` for inserts and updates, and for
    /// deletes of entities with no such attribute.
    public let tombstone: [String: Any]?
    /// For an update: the attributes and relationships that changed (by their descriptions in
    /// the store's model); `nil` for inserts and deletes.
    public let updatedProperties: Set<PropertyDescription>?
    /// The transaction this change belongs to.
    ///
    /// A change fetched with ``PersistentHistoryResultType/changesOnly`` holds its transaction
    /// (whose ``PersistentHistoryTransaction/changes`` is then `nil`). A change fetched inside
    /// its transaction (``PersistentHistoryResultType/transactionsAndChanges``) refers to it
    /// weakly, as the transaction holds its changes: keep the transaction while you use this.
    public var transaction: PersistentHistoryTransaction? { heldTransaction ?? weakTransaction }
    private let heldTransaction: PersistentHistoryTransaction?
    private weak var weakTransaction: PersistentHistoryTransaction?

    package init(
        changeID: Int64,
        changedObjectID: ManagedObjectID,
        changeType: PersistentHistoryChangeType,
        tombstone: [String: Any]?,
        updatedProperties: Set<PropertyDescription>?,
        transaction: PersistentHistoryTransaction,
        holdsTransaction: Bool
    ) {
        self.changeID = changeID
        self.changedObjectID = changedObjectID
        self.changeType = changeType
        self.tombstone = tombstone
        self.updatedProperties = updatedProperties
        heldTransaction = holdsTransaction ? transaction : nil
        weakTransaction = transaction
    }

    /// A readable summary, for logs and debugging.
    public var description: String {
        let properties = updatedProperties.map { " \($0.map(\.name).sorted())" } ?? ""
        return "PersistentHistoryChange(\(changeID) \(changeType) \(changedObjectID)\(properties))"
    }
}
