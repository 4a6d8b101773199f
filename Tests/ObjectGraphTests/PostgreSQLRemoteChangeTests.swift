import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport
import Testing

/// Two stores (two coordinators, as two `spot serve` instances would have) on one PostgreSQL
/// schema: each save `NOTIFY`s, the other store `LISTEN`s, reads the history after its last
/// token and merges it — the timer is set to an hour, so only the notification can deliver it.
@Suite("PostgreSQL: other instances' commits")
struct PostgreSQLRemoteChangeTests {
    /// Opens the store at `url` in a new container; with `listening`, it posts remote changes.
    /// Two instances on a new schema and, on the listening one, an auto-merging context's live
    /// controller of every photo sorted by `key`: what another instance's saves reach.
    struct Follower {
        let observer: PersistentContainer
        let other: PersistentContainer
        let context: ManagedObjectContext
        let controller: FetchedResultsController<Photo>
    }

    static func follower(sortedBy key: String) throws -> Follower {
        let url = try StoreKind.newPostgresSchemaURL()
        let observer = try open(url, listening: true)
        let other = try open(url, listening: false)
        let context = observer.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let controller = try context.performAndWait {
            let request = Photo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: key, ascending: true)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            return controller
        }
        return Follower(observer: observer, other: other, context: context, controller: controller)
    }

    static func open(_ url: URL, listening: Bool) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Test", managedObjectModel: SPoTModel.make())
        let description = PersistentStoreDescription(postgreSQLURL: url)
        if listening {
            description.setOption(true, forKey: PersistentStore.remoteChangeNotificationPostOption)
            description.setOption(3_600.0, forKey: PersistentStore.remoteChangePollingIntervalOption)
        }
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// Saves a photo `unique` titled `title` through a new context of `container`.
    static func insertPhoto(_ unique: String, title: String, in container: PersistentContainer) throws -> ManagedObjectID {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = unique
            photo.title = title
            try context.save()
            return photo.objectID
        }
    }

    @Test(
        "another instance's insert, update and delete reach an auto-merging context and its fetched results controller",
        .timeLimit(.minutes(10))
    )
    func otherInstanceFollows() async throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let observer = try Self.open(url, listening: true)
        let other = try Self.open(url, listening: false)
        let coordinator = observer.persistentStoreCoordinator
        var changes = coordinator.remoteChanges.makeAsyncIterator()

        let context = observer.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let recorder = ChangeRecorder()
        let controller = try context.performAndWait {
            let request = Photo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        func titles() -> [String] {
            context.performAndWait { (controller.fetchedObjects ?? []).compactMap(\.title) }
        }

        // Insert: announced, merged, in the controller.
        let id = try Self.insertPhoto("a", title: "Arch", in: other)
        let inserted = try #require(await changes.next())
        #expect(inserted.historyToken == other.persistentStoreCoordinator.currentPersistentHistoryToken())
        #expect(titles() == ["Arch"])

        // Update, then delete, each followed.
        let writer = other.newBackgroundContext()
        try writer.performAndWait {
            let photo = try #require(try writer.existingObject(with: id) as? Photo)
            photo.title = "Bell"
            try writer.save()
        }
        _ = try #require(await changes.next())
        #expect(titles() == ["Bell"])
        try writer.performAndWait {
            writer.delete(try writer.existingObject(with: id))
            try writer.save()
        }
        _ = try #require(await changes.next())
        #expect(titles() == [])

        // This instance's own saves are merged once, through its coordinator, never as remote.
        _ = try Self.insertPhoto("b", title: "Cactus", in: observer)
        _ = try Self.insertPhoto("c", title: "Dish", in: other)
        let next = try #require(await changes.next())
        #expect(next.historyToken == other.persistentStoreCoordinator.currentPersistentHistoryToken())
        #expect(titles() == ["Cactus", "Dish"])
        withExtendedLifetime(recorder) {}
    }

    @Test(
        "on a schema whose channel name is past the server's 63-byte limit, another instance's save is still announced",
        .timeLimit(.minutes(10))
    )
    func longChannelNameIsAnnounced() async throws {
        // A 52-character schema name the server keeps whole, and a 64-byte channel it cuts.
        let url = try StoreKind.newPostgresSchemaURL(prefix: "a_rather_long_label")
        let observer = try Self.open(url, listening: true)
        let other = try Self.open(url, listening: false)
        var changes = observer.persistentStoreCoordinator.remoteChanges.makeAsyncIterator()
        let id = try Self.insertPhoto("a", title: "Arch", in: other)
        let announced = try #require(await changes.next())
        #expect(announced.historyToken == other.persistentStoreCoordinator.currentPersistentHistoryToken())
        let reader = observer.newBackgroundContext()
        #expect(try reader.performAndWait { (try reader.existingObject(with: id) as? Photo)?.title } == "Arch")
    }
}
