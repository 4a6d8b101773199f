import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// Inserting never crashes when the store cannot reserve primary keys (another connection
/// holds it locked, or it is open read-only): the object gets a temporary ID and stays usable,
/// and the save that needs its permanent ID throws the store's error, keeping the changes.
@Suite("Inserting while the store cannot reserve keys")
struct StoreKeyReservationTests {
    /// A store file holding one photo, and a coordinator on it that waits 0.1 s for a lock.
    private static func storeFile(readOnly: Bool = false) throws -> (URL, PersistentStoreCoordinator, ManagedObjectID) {
        let stack = try TestStack()
        let url = try #require(stack.url)
        let context = stack.container.newBackgroundContext()
        let id = try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "1"
            photo.title = "Hoover Tower"
            try context.save()
            return photo.objectID
        }
        let coordinator = PersistentStoreCoordinator(managedObjectModel: SPoTModel.make())
        var options: [String: Any] = [PersistentStore.timeoutOption: 0.1]
        if readOnly { options[PersistentStore.readOnlyOption] = true }
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: options)
        return (url, coordinator, id)
    }

    @Test("an insert into a locked store gets a temporary ID; save throws SQLITE_BUSY, then saves once the lock is gone")
    func insertWhileLocked() throws {
        let (url, coordinator, photoID) = try Self.storeFile()
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: url.path, configuration: configuration)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let savedID = try context.performAndWait {
            context.persistentStoreCoordinator = coordinator
            let photo = try #require(try context.existingObject(with: photoID) as? Photo)
            try other.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE TRANSACTION") }
            let photographer = Photographer(context: context)  // no crash
            photographer.name = "Ansel"
            photo.photographer = photographer
            #expect(photographer.objectID.isTemporaryID)
            #expect(context.insertedObjects == [photographer])
            #expect(photographer.photos == [photo])

            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.cause?.resultCode == 5, "SQLITE_BUSY: \(error)")
            #expect(error.cause?.file == url.path)
            #expect(error.description.contains(url.path), "the error names the store: \(error)")
            #expect(context.insertedObjects == [photographer])
            #expect(context.updatedObjects == [photo])
            #expect(photographer.objectID.isTemporaryID)
            let again = try #require(throws: ObjectGraphError.self) { try context.obtainPermanentIDs(for: [photographer]) }
            #expect(again.cause?.resultCode == 5)

            try other.inDatabase { db in try db.execute(sql: "ROLLBACK") }
            try context.save()
            #expect(!context.hasChanges)
            #expect(!photographer.objectID.isTemporaryID)
            #expect(photographer.objectID.primaryKey > 0)
            #expect(context.object(with: photographer.objectID) === photographer)
            #expect(photo.photographer === photographer)
            return photographer.objectID
        }
        let reader = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        try reader.performAndWait {
            reader.persistentStoreCoordinator = coordinator
            let photo = try #require(try reader.existingObject(with: photoID) as? Photo)
            #expect(photo.photographer?.objectID == savedID)
            #expect(photo.photographer?.name == "Ansel")
            let stored = try #require(try reader.existingObject(with: savedID) as? Photographer)
            #expect(stored.photos.compactMap(\.unique) == ["1"])
        }
    }

    @Test("a thread waiting for the store to reserve keys of one entity holds up no insert that has a reserved key")
    func reservingHoldsNoLock() throws {
        let stack = try TestStack()
        let url = try #require(stack.url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: SPoTModel.make())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [PersistentStore.timeoutOption: 4.0])
        let photos = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        photos.performAndWait {
            photos.persistentStoreCoordinator = coordinator
            _ = Photo(context: photos)  // reserves a range of photo keys
        }
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: url.path, configuration: configuration)
        try other.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE TRANSACTION") }
        // A tag needs keys the store has not reserved: its insert waits for the lock (4 s).
        // The store tells (through its fault-injection hook, injecting nothing) when the tag's
        // reservation goes to the database.
        let store = try #require(coordinator.store as? SQLiteStore)
        let reserving = DispatchSemaphore(value: 0)
        store.failureInjection.set { access in
            if access == .write { reserving.signal() }
            return nil
        }
        let tags = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let tagInserted = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            tags.performAndWait {
                tags.persistentStoreCoordinator = coordinator
                _ = Tag(context: tags)
            }
            tagInserted.signal()
        }
        reserving.wait()
        store.failureInjection.set(nil)
        let photoID = photos.performAndWait { Photo(context: photos).objectID }
        // The photo took a reserved key while the tag still waits for the lock: had it waited
        // behind the tag's reservation, the tag would have given up (after 4 s) first.
        let tagStillWaiting = tagInserted.wait(timeout: .now()) == .timedOut
        try other.inDatabase { db in try db.execute(sql: "ROLLBACK") }
        if tagStillWaiting { tagInserted.wait() }  // (otherwise the check above took its signal)
        #expect(tagStillWaiting, "the photo's insert waited for the tag's reservation")
        #expect(!photoID.isTemporaryID)
    }

    @Test("an insert into a read-only store gets a temporary ID and its save throws SQLITE_READONLY")
    func insertIntoReadOnlyStore() throws {
        let (url, coordinator, _) = try Self.storeFile(readOnly: true)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        try context.performAndWait {
            context.persistentStoreCoordinator = coordinator
            let tag = Tag(context: context)  // no crash
            tag.name = "read-only"
            #expect(tag.objectID.isTemporaryID)
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.cause?.resultCode == 8, "SQLITE_READONLY: \(error)")
            #expect(error.cause?.file == url.path)
            #expect(context.insertedObjects == [tag])
            #expect(tag.name == "read-only")
        }
    }

    @Test("a fetched-results controller follows an object whose temporary ID turns permanent at save")
    func controllerFollowsTheNewID() throws {
        let (url, coordinator, _) = try Self.storeFile()
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: url.path, configuration: configuration)
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        try context.performAndWait {
            context.persistentStoreCoordinator = coordinator
            let request = Photographer.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            let recorder = ChangeRecorder()
            controller.delegate = recorder
            try controller.performFetch()
            try other.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE TRANSACTION") }
            let photographer = Photographer(context: context)
            photographer.name = "Ansel"
            context.processPendingChanges()
            let temporaryID = photographer.objectID
            #expect(temporaryID.isTemporaryID)
            #expect(controller.fetchedObjects == [photographer])
            try other.inDatabase { db in try db.execute(sql: "ROLLBACK") }
            try context.save()
            #expect(!photographer.objectID.isTemporaryID)
            // Reported as Core Data's snapshots report it: the temporary ID leaves, the
            // permanent one arrives, at the same place.
            let batch = try #require(recorder.batches.last)
            #expect(batch.objects.map(\.type) == [.delete, .insert])
            #expect(batch.objects.map(\.indexPath) == [IndexPath(row: 0, section: 0), nil])
            #expect(batch.objects.map(\.newIndexPath) == [nil, IndexPath(row: 0, section: 0)])
            #expect(batch.difference?.deletedItemIdentifiers == [temporaryID])
            #expect(batch.difference?.insertedItemIdentifiers == [photographer.objectID])
            #expect(batch.difference?.after.itemIdentifiers == [photographer.objectID])
            photographer.name = "Dorothea"
            context.processPendingChanges()
            // The controller follows the new ID: the object is listed once, where it was.
            #expect(controller.fetchedObjects == [photographer])
            #expect(controller.indexPath(forObject: photographer) == IndexPath(row: 0, section: 0))
            #expect(controller.fetchedObjects?.map(\.objectID) == [photographer.objectID])
        }
    }

    @Test("obtainPermanentIDs does nothing for IDs that are permanent from insert")
    func permanentFromInsert() throws {
        let (_, coordinator, _) = try Self.storeFile()
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        try context.performAndWait {
            context.persistentStoreCoordinator = coordinator
            let tag = Tag(context: context)
            tag.name = "permanent"
            let id = tag.objectID
            #expect(!id.isTemporaryID)
            try context.obtainPermanentIDs(for: [tag])
            #expect(tag.objectID == id)
            try context.save()
            #expect(tag.objectID == id)
        }
    }
}
