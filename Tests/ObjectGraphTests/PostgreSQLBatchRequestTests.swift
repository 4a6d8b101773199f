import Foundation
import ObjectGraph
import ObjectGraphPostgres
import Testing

/// Batch requests on PostgreSQL beyond what the store-level suites check on every store kind:
/// another instance on the same schema follows them, and one the server refuses halfway
/// leaves nothing behind.
@Suite("PostgreSQL: batch requests")
struct PostgreSQLBatchRequestTests {
    @Test(
        "another instance's batch update, insert and delete reach an auto-merging context's fetched results controller",
        .timeLimit(.minutes(10))
    )
    func otherInstanceFollowsBatches() async throws {
        let follower = try PostgreSQLRemoteChangeTests.follower(sortedBy: "title")
        let (observer, other, context, controller) = (follower.observer, follower.other, follower.context, follower.controller)
        var changes = observer.persistentStoreCoordinator.remoteChanges.makeAsyncIterator()
        // The controller changes only through merged changes: it shows what was announced.
        func titles() -> [String] {
            context.performAndWait { (controller.fetchedObjects ?? []).compactMap(\.title) }
        }
        let id = try PostgreSQLRemoteChangeTests.insertPhoto("a", title: "Arch", in: other)
        _ = try #require(await changes.next())
        #expect(titles() == ["Arch"])

        let writer = other.newBackgroundContext()
        try writer.performAndWait {
            let update = BatchUpdateRequest(entityName: "Photo")
            update.propertiesToUpdate = ["title": "Bell"]
            _ = try writer.execute(update)
        }
        let updated = try #require(await changes.next())
        #expect(updated.historyToken == other.persistentStoreCoordinator.currentPersistentHistoryToken())
        #expect(titles() == ["Bell"])

        try writer.performAndWait {
            _ = try writer.execute(BatchInsertRequest(entityName: "Photo", objects: [["unique": "b", "title": "Cove"]]))
        }
        _ = try #require(await changes.next())
        #expect(titles() == ["Bell", "Cove"])

        try writer.performAndWait { _ = try writer.execute(BatchDeleteRequest(objectIDs: [id])) }
        _ = try #require(await changes.next())
        #expect(titles() == ["Cove"])
    }

    @Test("a batch the server refuses halfway leaves nothing — no row, no update, no history — and the error names the server")
    func failedBatchLeavesNothing() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let container = try PostgreSQLRemoteChangeTests.open(url, listening: false)
        _ = try PostgreSQLRemoteChangeTests.insertPhoto("a", title: "Arch", in: container)
        let before = container.persistentStoreCoordinator.currentPersistentHistoryToken()
        // The first object upserts photo "a" (its UPDATE runs); the server then refuses the
        // second's title: PostgreSQL's text cannot hold a NUL character.
        let request = BatchInsertRequest(
            entityName: "Photo",
            objects: [["unique": "a", "title": "Changed"], ["unique": "b", "title": "nul\u{0}byte"]]
        )
        let context = container.newBackgroundContext()
        let error = try #require(throws: ObjectGraphError.self) { try context.performAndWait { try context.execute(request) } }
        #expect(error.message.contains("batch insert") && error.message.contains("PostgreSQL store at postgres://"), "\(error)")
        #expect(error.message.contains("nothing was written"))

        let fresh = container.newBackgroundContext()
        let titles = try fresh.performAndWait { try fresh.fetch(Photo.fetchRequest()).compactMap(\.title) }
        #expect(titles == ["Arch"])
        #expect(container.persistentStoreCoordinator.currentPersistentHistoryToken() == before)
    }

    @Test("a batch upsert of 10,000 objects into 10,000 stored rows updates every one, in one history transaction")
    func largeUpsert() throws {
        let stack = try TestStack(.postgreSQL, model: BatchInsertUpsertTests.keyedModel(.integer64))
        let count = 10_000
        _ = try BatchInsertUpsertTests.upsert("Keyed", (0..<count).map { ["key": $0, "payload": "stored"] }, in: stack)
        let before = stack.container.persistentStoreCoordinator.currentPersistentHistoryToken()
        let objects: [[String: Any]] = (0..<count).map { ["key": count - 1 - $0, "payload": "p\(count - 1 - $0)"] }
        let clock = ContinuousClock()
        let start = clock.now
        let (ids, inserted, updated) = try BatchInsertUpsertTests.upsert("Keyed", objects, in: stack)
        let elapsed = clock.now - start
        print("PostgreSQL: batch upsert 10k into 10k: \(elapsed)")
        #expect(ids.count == count && Set(ids).count == count && inserted.isEmpty && updated == ids)
        #expect(try LibraryModel.count("Keyed", in: stack) == count)
        let payloads = try LibraryModel.all("Keyed", in: stack) { "\($0.value(forKey: "key")!)=\($0.value(forKey: "payload")!)" }
        #expect(payloads == (0..<count).map { "\($0)=p\($0)" }.sorted())
        let context = stack.container.newBackgroundContext()
        let transactions = try HistoryStack.transactions(after: before, in: context)
        #expect(transactions.count == 1 && transactions.first?.changes?.count == count)
        #expect(transactions.first?.changes?.allSatisfy { $0.changeType == .update } == true)
    }

    @Test("each object that upserts a row adds one to its version, whether the row was stored, new in this chunk or new in an earlier one")
    func upsertVersions() throws {
        let stack = try TestStack(.postgreSQL, model: BatchInsertUpsertTests.keyedModel(.string))
        let url = try #require(stack.url)
        _ = try BatchInsertUpsertTests.store("Keyed", [["key": "a", "payload": "stored"]], in: stack)
        var objects: [[String: Any]] = [["key": "a", "payload": "1"], ["key": "b", "payload": "1"], ["key": "a", "payload": "2"], ["key": "b", "note": "n"]]
        objects += (0..<2_000).map { ["key": "filler \($0)", "payload": "f"] }
        // Past the first chunk: b was inserted by the one before.
        objects += [["key": "b", "payload": "3"], ["key": "a", "payload": "3"]]
        _ = try BatchInsertUpsertTests.upsert("Keyed", objects, in: stack)
        let rows = try PostgresShell.run(#"SELECT "ZKEY", "Z_OPT", "ZPAYLOAD", COALESCE("ZNOTE", '-') FROM "ZKEYED" WHERE "ZKEY" IN ('a', 'b', 'filler 0') ORDER BY 1"#, in: url)
        #expect(rows == ["a|4|3|-", "b|3|3|n", "filler 0|1|f|-"])
    }
}
