extension ManagedObjectContext {
    /// The user-info keys of a context's notifications, as Core Data's
    /// `NSManagedObjectContext.NotificationKey`, with Core Data's raw values (`"inserted"`,
    /// `"inserted_objectIDs"`, …), so code that reads a notification's user info by the string
    /// reads the same.
    ///
    /// ObjectGraph's did-save notifications (a context's, and a history transaction's
    /// ``PersistentHistoryTransaction/objectIDNotification()``) carry the sets of saved
    /// ``ManagedObjectID``s under ``insertedObjectIDs``, ``updatedObjectIDs`` and
    /// ``deletedObjectIDs``, as Core Data's object-ID notifications do; the typed payloads are
    /// under ``ManagedObjectContext/didSaveKey`` and ``ManagedObjectContext/objectsDidChangeKey``.
    public enum NotificationKey: String, Sendable, CaseIterable {
        /// Core Data's `NSInsertedObjectsKey`: `"inserted"`.
        case insertedObjects = "inserted"
        /// Core Data's `NSUpdatedObjectsKey`: `"updated"`.
        case updatedObjects = "updated"
        /// Core Data's `NSDeletedObjectsKey`: `"deleted"`.
        case deletedObjects = "deleted"
        /// Core Data's `NSRefreshedObjectsKey`: `"refreshed"`.
        case refreshedObjects = "refreshed"
        /// Core Data's `NSInvalidatedObjectsKey`: `"invalidated"`.
        case invalidatedObjects = "invalidated"
        /// Core Data's `NSInvalidatedAllObjectsKey`: `"invalidatedAll"`.
        case invalidatedAllObjects = "invalidatedAll"
        /// Core Data's `NSInsertedObjectIDsKey`: `"inserted_objectIDs"`.
        case insertedObjectIDs = "inserted_objectIDs"
        /// Core Data's `NSUpdatedObjectIDsKey`: `"updated_objectIDs"`.
        case updatedObjectIDs = "updated_objectIDs"
        /// Core Data's `NSDeletedObjectIDsKey`: `"deleted_objectIDs"`.
        case deletedObjectIDs = "deleted_objectIDs"
        /// Core Data's `NSRefreshedObjectIDsKey`: `"refreshed_objectIDs"`.
        case refreshedObjectIDs = "refreshed_objectIDs"
        /// Core Data's `NSInvalidatedObjectIDsKey`: `"invalidated_objectIDs"`.
        case invalidatedObjectIDs = "invalidated_objectIDs"
    }
}

extension ContextDidSave {
    /// The notification user info of this save: the payload under
    /// ``ManagedObjectContext/didSaveKey`` and the sets of IDs under Core Data's keys.
    var notificationUserInfo: [AnyHashable: Any] {
        [
            ManagedObjectContext.didSaveKey: self,
            ManagedObjectContext.NotificationKey.insertedObjectIDs.rawValue: insertedObjectIDs,
            ManagedObjectContext.NotificationKey.updatedObjectIDs.rawValue: updatedObjectIDs,
            ManagedObjectContext.NotificationKey.deletedObjectIDs.rawValue: deletedObjectIDs,
        ]
    }
}
