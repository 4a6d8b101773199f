public import Foundation
import Synchronization

/// What changed in a context since its last `processPendingChanges()`, as Core Data's
/// `NSManagedObjectContextObjectsDidChange` user info.
///
/// Delivered synchronously on the context's queue; it holds objects, so it is not `Sendable`.
public struct ObjectsDidChange {
    /// Objects inserted, or merged in as inserted from another context's save.
    ///
    /// Made into a set when first read: the context lists them in the order they came, and
    /// hashing an import's 50,000 objects is wasted unless an observer asks for the set.
    public var insertedObjects: Set<ManagedObject> { inserted.set }
    /// The inserted objects, in the order they came.
    let inserted: LazyObjectSet
    /// Objects whose values changed locally.
    public let updatedObjects: Set<ManagedObject>
    /// Objects deleted locally or by a merged save.
    public let deletedObjects: Set<ManagedObject>
    /// Objects whose values were re-read from the store (by a merge or `refresh`).
    public let refreshedObjects: Set<ManagedObject>
    /// Whether every object was invalidated (`reset()`).
    public let invalidatedAllObjects: Bool
    /// Objects whose values or relationships could not be read from the store when a getter
    /// fired their fault, with the error: each stays a fault (read again on next access)
    /// showing default values, and the context's next save or fetch throws the error.
    public internal(set) var readFailures: [ManagedObject: ObjectGraphError] = [:]
    /// Objects a merged save updated that this context had not registered: not reported to
    /// observers (Core Data does not either), but a fetched results controller needs them to
    /// find objects that now match its predicate.
    var mergedUnregisteredObjectIDs: Set<ManagedObjectID> = []
    /// For updated objects that only a merged save changed and that were loaded here, the keys
    /// whose values it changed; an updated object not listed may have changed anywhere. A
    /// fetched results controller skips a related object none of whose read keys changed.
    var mergedChangedKeys: [ManagedObjectID: Set<String>] = [:]

    init(
        inserted: [ManagedObject],
        updatedObjects: Set<ManagedObject>,
        deletedObjects: Set<ManagedObject>,
        refreshedObjects: Set<ManagedObject>,
        invalidatedAllObjects: Bool,
        mergedUnregisteredObjectIDs: Set<ManagedObjectID> = []
    ) {
        self.inserted = LazyObjectSet(inserted)
        self.updatedObjects = updatedObjects
        self.deletedObjects = deletedObjects
        self.refreshedObjects = refreshedObjects
        self.invalidatedAllObjects = invalidatedAllObjects
        self.mergedUnregisteredObjectIDs = mergedUnregisteredObjectIDs
    }
}

/// Objects listed once and hashed into a set only when someone asks for the set.
///
/// Not thread-safe, as the notification holding it: it is read on its context's queue.
final class LazyObjectSet {
    /// The objects, in the order they were listed.
    let objects: [ManagedObject]
    private var hashed: Set<ManagedObject>?

    init(_ objects: [ManagedObject]) {
        self.objects = objects
    }

    /// The objects as a set, made on first use.
    var set: Set<ManagedObject> {
        if let hashed { return hashed }
        let set = Set(objects)
        hashed = set
        return set
    }
}

/// What a save wrote, by object ID: the payload of a did-save notification.
///
/// `Sendable`, so it crosses queues; hand it to another context's
/// ``ManagedObjectContext/mergeChanges(fromContextDidSave:)-(ContextDidSave)`` inside its
/// `perform`.
public struct ContextDidSave: Sendable, Hashable {
    /// Objects the save inserted.
    public let insertedObjectIDs: Set<ManagedObjectID>
    /// Objects the save updated (and those whose derived attributes the store updated).
    public internal(set) var updatedObjectIDs: Set<ManagedObjectID>
    /// Objects the save deleted.
    public let deletedObjectIDs: Set<ManagedObjectID>
    /// For updated objects, the slots of the properties the save changed (a context's save
    /// knows them; a payload made from IDs or history does not): merging contexts pass them on
    /// as ``ObjectsDidChange/mergedChangedKeys``.
    var updatedSlots: [ManagedObjectID: [Int]] = [:]

    /// Creates a payload; contexts create these when they save.
    public init(insertedObjectIDs: Set<ManagedObjectID>, updatedObjectIDs: Set<ManagedObjectID>, deletedObjectIDs: Set<ManagedObjectID>) {
        self.insertedObjectIDs = insertedObjectIDs
        self.updatedObjectIDs = updatedObjectIDs
        self.deletedObjectIDs = deletedObjectIDs
    }

    /// Whether the save changed nothing.
    public var isEmpty: Bool { insertedObjectIDs.isEmpty && updatedObjectIDs.isEmpty && deletedObjectIDs.isEmpty }
}

extension Notification.Name {
    /// Posted (object: the context) after `processPendingChanges()` found changes; user info
    /// under ``ManagedObjectContext/objectsDidChangeKey`` is an ``ObjectsDidChange``. Core
    /// Data's `NSManagedObjectContextObjectsDidChange`, with its value,
    /// `"NSObjectsChangedInManagingContextNotification"`.
    public static let managedObjectContextObjectsDidChange = Notification.Name("NSObjectsChangedInManagingContextNotification")
    /// Posted (object: the context) before a save writes anything. Core Data's
    /// `NSManagedObjectContextWillSave`, with its value,
    /// `"NSManagingContextWillSaveChangesNotification"`.
    public static let managedObjectContextWillSave = Notification.Name("NSManagingContextWillSaveChangesNotification")
    /// Posted (object: the context) after a save; user info under
    /// ``ManagedObjectContext/didSaveKey`` is a ``ContextDidSave``, and under Core Data's
    /// `"inserted_objectIDs"` / `"updated_objectIDs"` / `"deleted_objectIDs"`
    /// (``ManagedObjectContext/NotificationKey``) the sets of IDs. Core Data's
    /// `NSManagedObjectContextDidSave`, with its value, `"NSManagingContextDidSaveChangesNotification"`.
    public static let managedObjectContextDidSave = Notification.Name("NSManagingContextDidSaveChangesNotification")
}

/// Keeps an observer registered; call ``cancel()`` (or drop every reference) to remove it.
public final class ContextObservation: Sendable {
    /// The removal, taken out of the box by the first ``cancel()`` so it runs once.
    private let onCancel: Mutex<(@Sendable () -> Void)?>

    init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = Mutex(onCancel) }

    /// Removes the observer.
    public func cancel() {
        let action = onCancel.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}

extension Notification {
    /// The ``ContextDidSave`` payload of a ``Foundation/Notification/Name/managedObjectContextDidSave``
    /// notification: extract it before crossing queues (a `Notification` is not `Sendable`).
    public var contextDidSave: ContextDidSave? {
        userInfo?[ManagedObjectContext.didSaveKey] as? ContextDidSave
    }
}
