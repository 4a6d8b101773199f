import Foundation
import ObjectGraphPeerModel
import Testing

@testable import ObjectGraph

/// Remote changes between two coordinators of one process on one file — the same path as
/// another process's, without a child — and what must never be reported as remote.
@Suite("Remote changes between coordinators")
struct RemoteChangeCoordinatorTests {
    /// Two containers on one new file: `observer` with remote notifications, `other` without.
    static func pair(_ options: [String: any Sendable] = [:]) throws -> (observer: RemoteObserver, other: PersistentContainer) {
        let url = RemoteChangeProcessTests.storeURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let observer = try RemoteObserver(url: url, options: options)
        return (observer, try PeerModel.open(url, remoteChanges: false))
    }

    static func insert(_ name: String, group: String = "A", in container: PersistentContainer, author: String? = nil) throws {
        let context = container.newBackgroundContext()
        context.transactionAuthor = author
        try context.performAndWait {
            let item = try context.insertObject(entityName: "Item")
            item.setValue(name, forKey: "name")
            item.setValue(group, forKey: "group")
            try context.save()
        }
    }

    @Test("another coordinator's save is remote; this coordinator's own saves are merged once, never again as remote")
    func ownSavesAreNotRemote() async throws {
        let (observer, other) = try Self.pair([PersistentStore.remoteChangePollingIntervalOption: 3_600.0])
        let coordinator = observer.container.persistentStoreCoordinator
        var changes = coordinator.remoteChanges.makeAsyncIterator()

        // Our own save: merged once through the coordinator, never announced as remote.
        try Self.insert("mine", in: observer.container)
        coordinator.checkForRemoteChanges()
        let own = observer.drainBatches()
        #expect(own["items by group"]?.count == 1, "\(own)")
        #expect(own["items by group"]?.first?.objects.map(\.type) == [.insert])

        // Another coordinator's save: one remote change, one merge; our earlier save not again.
        try Self.insert("theirs", in: other, author: "other")
        coordinator.checkForRemoteChanges()
        let change = try #require(await changes.next())
        #expect(change.historyToken == other.persistentStoreCoordinator.currentPersistentHistoryToken())
        let theirs = observer.drainBatches()
        #expect(theirs["items by group"]?.count == 1, "\(theirs)")
        #expect(theirs["items by group"]?.first?.objects.map(\.type) == [.insert])
        let checked = try observer.check(after: "both saves")
        #expect(checked.isEmpty, "\(checked)")

        // Nothing new: checking again announces nothing and merges nothing.
        coordinator.checkForRemoteChanges()
        let none = observer.drainBatches()
        #expect(none.values.allSatisfy { $0.isEmpty }, "\(none)")
        try Self.insert("third", in: other)
        coordinator.checkForRemoteChanges()
        let next = try #require(await changes.next())
        #expect(next.historyToken! > change.historyToken!, "the earlier change was not announced twice")
    }

    @Test("a row changed by another coordinator is never served stale from the row cache once merged")
    func rowCacheAfterMerge() throws {
        let (observer, other) = try Self.pair([PersistentStore.remoteChangePollingIntervalOption: 3_600.0])
        try Self.insert("apple", in: other)
        observer.container.persistentStoreCoordinator.checkForRemoteChanges()
        // A context of the observer reads the row by ID: the store's row cache now holds it.
        let reader = observer.container.newBackgroundContext()
        let id = try reader.performAndWait {
            let item = try #require(try reader.fetch(FetchRequest<ManagedObject>(entityName: "Item")).first)
            reader.refresh(item, mergeChanges: false)
            #expect(item.value(forKey: "name") as? String == "apple")
            return item.objectID
        }
        let writer = other.newBackgroundContext()
        try writer.performAndWait {
            try writer.existingObject(with: id).setValue("banana", forKey: "name")
            try writer.save()
        }
        observer.container.persistentStoreCoordinator.checkForRemoteChanges()
        let checked = try observer.check(after: "rename")
        #expect(checked.isEmpty, "\(checked)")
        let later = observer.container.newBackgroundContext()
        let name = try later.performAndWait { try later.existingObject(with: id).value(forKey: "name") as? String }
        #expect(name == "banana")
    }

    @Test("Core Data's manual recipe: fetch the history after a token and merge each transaction's notification")
    func manualRecipe() throws {
        let (observer, other) = try Self.pair()
        // A context that does not merge by itself, kept current by hand.
        let context = observer.container.newBackgroundContext()
        let token = observer.container.persistentStoreCoordinator.currentPersistentHistoryToken()
        try Self.insert("apple", in: other)
        try Self.insert("pear", group: "B", in: other)
        try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            try controller.performFetch()
            #expect(controller.fetchedObjects?.count == 2)
            try Self.insert("fig", in: other)
            let result = try #require(try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: token)) as? PersistentHistoryResult)
            let transactions = try #require(result.result as? [PersistentHistoryTransaction])
            #expect(transactions.count == 3)
            for transaction in transactions { context.mergeChanges(fromContextDidSave: transaction.objectIDNotification()) }
            #expect(controller.fetchedObjects?.compactMap { $0.value(forKey: "name") as? String } == ["apple", "fig", "pear"])
        }
    }

    @Test("history retention prunes by count as saves go on; readers behind it are told")
    func retentionByCount() throws {
        let (observer, other) = try Self.pair([
            PersistentStore.remoteChangePollingIntervalOption: 3_600.0,
            PersistentStore.persistentHistoryMaximumCountOption: 4,
        ])
        try Self.insert("first", in: observer.container)
        let first = try #require(observer.container.persistentStoreCoordinator.currentPersistentHistoryToken())
        for index in 0..<40 { try Self.insert("item\(index)", in: observer.container) }
        _ = other
        let context = observer.container.newBackgroundContext()
        let kept = try context.performAndWait {
            let result = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?))
            return try #require((result as? PersistentHistoryResult)?.result as? [PersistentHistoryTransaction])
        }
        // Pruned every 16 transactions down to 4: at most 4 + 15 remain, the newest among them.
        #expect(kept.count >= 4 && kept.count < 4 + Int(PersistentHistoryRetention.pruningInterval), "\(kept.count)")
        #expect(kept.last?.token == observer.container.persistentStoreCoordinator.currentPersistentHistoryToken())
        let error = try context.performAndWait {
            try #require(throws: ObjectGraphError.self) { try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: first)) }
        }
        #expect(error.code == .persistentHistoryTokenExpired)
    }

    @Test("bad option values are refused, naming the option")
    func badOptions() throws {
        for (key, value) in [
            (PersistentStore.remoteChangeNotificationPostOption, "yes" as any Sendable),
            (PersistentStore.remoteChangePollingIntervalOption, 0.0),
            (PersistentStore.persistentHistoryMaximumAgeOption, -1.0),
            (PersistentStore.persistentHistoryMaximumCountOption, "ten"),
        ] {
            let url = RemoteChangeProcessTests.storeURL()
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            let error = try #require(throws: ObjectGraphError.self) { try PeerModel.open(url, remoteChanges: false, options: [key: value]) }
            #expect(error.message.contains(key), "\(error)")
        }
    }
}
