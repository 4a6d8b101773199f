import Foundation
import Testing

@testable import ObjectGraph

/// Batch requests write around the contexts: persistent history records them (with the
/// executing context's author), and the row cache never serves a row they changed.
@Suite("Batch requests, history and the row cache")
struct BatchRequestHistoryTests {
    /// Saves three photos and returns their IDs.
    private static func seed(_ container: PersistentContainer) throws -> [ManagedObjectID] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let photos = (0..<3).map { number in
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.title = "Photo \(number)"
                return photo
            }
            try context.save()
            return photos.map(\.objectID)
        }
    }

    @Test("a batch update and a batch delete are transactions of the executing context's author", arguments: StoreKind.allCases)
    func batchWritesAreRecorded(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let ids = try Self.seed(container)
        let context = container.newBackgroundContext()
        context.transactionAuthor = "importer"
        context.name = "batch"
        try context.performAndWait {
            let update = BatchUpdateRequest(entityName: "Photo")
            update.predicate = FetchPredicate(format: "unique == %@", "1")
            update.propertiesToUpdate = ["title": "Renamed"]
            _ = try context.execute(update)
            _ = try context.execute(BatchDeleteRequest(objectIDs: [ids[2]]))
        }
        let transactions = try HistoryStack.transactions(after: nil, in: container.newBackgroundContext())
        #expect(transactions.count == 3, "the seeding save, the update, the delete")
        let batch = transactions.suffix(2)
        #expect(batch.allSatisfy { $0.author == "importer" && $0.contextName == "batch" })
        #expect(batch.first?.changes?.map(\.changeType) == [.update])
        #expect(batch.first?.changes?.map(\.changedObjectID) == [ids[1]])
        #expect(batch.last?.changes?.map(\.changeType) == [.delete])
        #expect(batch.last?.changes?.map(\.changedObjectID) == [ids[2]])
        // What Core Data records too: the batch update's properties, the deleted row's tombstone
        // (HistoryStack's model keeps Photo.unique), read before the row went.
        #expect(batch.first?.changes?.first?.updatedProperties?.map(\.name) == ["title"])
        #expect(batch.last?.changes?.first?.tombstone?["unique"] as? String == "2")
    }

    @Test("after a batch update, a context reading the row by ID sees the new value", arguments: StoreKind.allCases)
    func batchUpdateEmptiesTheRowCache(store: StoreKind) throws {
        let stack = try TestStack(store)
        let ids = try Self.seed(stack.container)
        let reader = stack.container.newBackgroundContext()
        #expect(reader.performAndWait { (reader.object(with: ids[0]) as? Photo)?.title } == "Photo 0")
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            let update = BatchUpdateRequest(entityName: "Photo")
            update.propertiesToUpdate = ["title": "Batch"]
            _ = try writer.execute(update)
        }
        let fresh = stack.container.newBackgroundContext()
        #expect(fresh.performAndWait { (fresh.object(with: ids[0]) as? Photo)?.title } == "Batch")
    }
}
