import Foundation
import GRDB
import Testing

@testable import ObjectGraph

/// A store error never makes data silently change: a failed read is thrown or reported and
/// the object keeps its identity and state; a failed write throws and the context keeps its
/// changes for a retry.
@Suite("Store failures surface")
struct StoreFaultInjectionTests {
    /// A stack on a new file holding one photo, "Hoover Tower", tagged "tower" and "quad".
    private static func stack() throws -> (TestStack, ManagedObjectID) {
        let stack = try TestStack()
        let context = stack.container.newBackgroundContext()
        let id = try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "1"
            photo.title = "Hoover Tower"
            for name in ["tower", "quad"] {
                let tag = Tag(context: context)
                tag.name = name
                photo.tags.insert(tag)
            }
            try context.save()
            return photo.objectID
        }
        return (stack, id)
    }

    private static func store(of stack: TestStack) throws -> SQLiteStore {
        try #require(stack.container.persistentStoreCoordinator.store as? SQLiteStore)
    }

    /// Makes every read (or write) of `store` fail as a disk error would, until `body` returns.
    private static func failing<T>(_ access: SQLiteStore.StoreAccess, _ store: SQLiteStore, _ body: () throws -> T) rethrows -> T {
        store.failureInjection.set { kind in
            kind == access ? DatabaseError(resultCode: .SQLITE_IOERR, message: "disk I/O error (injected)") : nil
        }
        defer { store.failureInjection.set(nil) }
        return try body()
    }

    @Test("a fault whose read fails stays a fault with its identity; the failure is reported, then thrown by the next fetch")
    func faultReadFails() throws {
        let (stack, id) = try Self.stack()
        let store = try Self.store(of: stack)
        let context = stack.container.newBackgroundContext()
        var reported: [ManagedObject: ObjectGraphError] = [:]
        let observation = context.addObjectsDidChangeObserver { change in
            reported.merge(change.readFailures) { first, _ in first }
        }
        defer { observation.cancel() }
        try context.performAndWait {
            let photo = try #require(context.object(with: id) as? Photo)
            let title = Self.failing(.read, store) { photo.title }
            #expect(title == nil, "a getter that cannot throw shows the default value")
            #expect(photo.isFault, "the object is still a fault: the next access reads again")
            #expect(!photo.isDeleted)
            #expect(context.registeredObject(for: id) === photo)
            #expect(photo.objectID == id)

            // existingObject(with:) can throw: it throws at once.
            let direct = try #require(throws: ObjectGraphError.self) {
                try Self.failing(.read, store) { try context.existingObject(with: id) }
            }
            #expect(direct.cause?.resultCode == 10)  // SQLITE_IOERR

            // The read failures are kept: the next fetch throws the first, with SQLite's code and the file.
            let kept = try #require(throws: ObjectGraphError.self) { try context.fetch(Tag.fetchRequest()) }
            #expect(kept.code == .persistentStoreOperation)
            #expect(kept.cause?.resultCode == 10)
            #expect(kept.cause?.file == stack.url?.path)
            #expect(kept.description.contains("disk I/O error (injected)"))
            #expect(try context.fetch(Tag.fetchRequest()).count == 2, "reported once, then forgotten")

            // With the store readable again, the same object loads its values.
            #expect(photo.title == "Hoover Tower")
            #expect(!photo.isFault)
        }
        #expect(reported.count == 1)
        #expect(reported.keys.first?.objectID == id)
        #expect(reported.values.first?.cause?.resultCode == 10)
    }

    @Test("a relationship whose members cannot be read is reported, and the next save refuses to run on it")
    func membersReadFails() throws {
        let (stack, id) = try Self.stack()
        let store = try Self.store(of: stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = try #require(try context.existingObject(with: id) as? Photo)
            let tags = Self.failing(.read, store) { photo.tags }
            #expect(tags.isEmpty)
            photo.title = "Hoover Tower at dusk"
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.cause?.resultCode == 10)
            #expect(error.message.contains("Photo.tags"))
            #expect(context.hasChanges, "the change is kept for a retry")
            // Readable again: the members are there, and the save goes through.
            #expect(Set(photo.tags.compactMap(\.name)) == ["tower", "quad"])
            try context.save()
        }
        let reader = stack.container.newBackgroundContext()
        let title = try reader.performAndWait { try (reader.existingObject(with: id) as? Photo)?.title }
        #expect(title == "Hoover Tower at dusk")
    }

    @Test("a value set on a fault that could not be read is refused, never lost")
    func setOnFailedFault() throws {
        let (stack, id) = try Self.stack()
        let store = try Self.store(of: stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = try #require(context.object(with: id) as? Photo)
            let refused = try #require(throws: ObjectGraphError.self) {
                try Self.failing(.read, store) { try photo.setCheckedValue("Renamed", forKey: "title") }
            }
            #expect(refused.message.contains("'title' was not changed"))
            Self.failing(.read, store) { photo.title = "Renamed" }
            // The typed setter cannot throw: the next save does, naming the object and key.
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.cause?.resultCode == 10 || error.failures.contains { $0.key == "title" })
            #expect(photo.title == "Hoover Tower", "the stored value, read once the store is readable")
        }
    }

    @Test("a save whose rows cannot be written throws SQLite's code and keeps the changes to retry")
    func injectedWriteFails() throws {
        let (stack, id) = try Self.stack()
        let store = try Self.store(of: stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = try #require(try context.existingObject(with: id) as? Photo)
            photo.title = "Hoover Tower, 1941"
            let error = try #require(throws: ObjectGraphError.self) { try Self.failing(.write, store) { try context.save() } }
            #expect(error.code == .persistentStoreOperation)
            #expect(error.cause?.resultCode == 10)
            #expect(error.cause?.file == stack.url?.path)
            #expect(context.updatedObjects == [photo])
            #expect(photo.changedValues()["title"] as? String == "Hoover Tower, 1941")
            try context.save()
            #expect(!context.hasChanges)
        }
    }

    @Test("a save into a file another connection holds locked throws SQLITE_BUSY; after the lock, the retry saves")
    func lockedMidSave() throws {
        let (stack, id) = try Self.stack()
        let url = try #require(stack.url)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: url.path, configuration: configuration)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = try #require(try context.existingObject(with: id) as? Photo)
            photo.title = "Hoover Tower in fog"
            let tag = try #require(photo.tags.first { $0.name == "quad" })
            context.delete(tag)
            try other.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE TRANSACTION") }
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.cause?.resultCode == 5, "SQLITE_BUSY: \(error)")  // SQLITE_BUSY
            #expect(error.cause?.file == url.path)
            #expect(context.updatedObjects.contains(photo))
            #expect(context.deletedObjects == [tag])
            try other.inDatabase { db in try db.execute(sql: "ROLLBACK") }
            try context.save()
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let photo = try #require(try reader.existingObject(with: id) as? Photo)
            #expect(photo.title == "Hoover Tower in fog")
            #expect(photo.tags.compactMap(\.name) == ["tower"])
        }
    }

    @Test("a save into a full database throws SQLITE_FULL and keeps the changes; with room, the retry saves")
    func fullMidSave() throws {
        let model = ManagedObjectModel {
            EntityDescription("Scan") { AttributeDescription("pixels", .binaryData) }
        }
        let stack = try TestStack(model: model)
        let store = try Self.store(of: stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let scan = try context.insertObject(entityName: "Scan")
            try context.save()  // reserves keys, so the failing save only writes the row
            let pages = try store.writer.write { db in try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }
            try store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = \(pages)") }
            scan.setValue(Data(repeating: 7, count: 1 << 20), forKey: "pixels")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.cause?.resultCode == 13, "SQLITE_FULL: \(error)")
            #expect(context.updatedObjects == [scan])
            try store.writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA max_page_count = 1073741823") }
            try context.save()
        }
        let reader = stack.container.newBackgroundContext()
        let count = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Scan")).first?.value(forKey: "pixels") as? Data
        }?.count
        #expect(count == 1 << 20)
    }

    @Test("a save into a store opened read-only throws SQLITE_READONLY and keeps the changes")
    func readOnlyStore() throws {
        let (stack, id) = try Self.stack()
        let url = try #require(stack.url)
        let coordinator = PersistentStoreCoordinator(managedObjectModel: SPoTModel.make())
        try coordinator.addPersistentStore(type: .sqlite, at: url, options: [PersistentStore.readOnlyOption: true])
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        try context.performAndWait {
            context.persistentStoreCoordinator = coordinator
            let photo = try #require(try context.existingObject(with: id) as? Photo)
            photo.title = "Hoover Tower, read-only"
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.cause?.resultCode == 8, "SQLITE_READONLY: \(error)")
            #expect(context.updatedObjects == [photo])
        }
    }
}
