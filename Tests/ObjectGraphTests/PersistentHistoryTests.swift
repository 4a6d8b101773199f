import Foundation
import GRDB
import ObjectGraph
import Testing

@Suite("Persistent history: transactions, changes, tokens")
struct PersistentHistoryTests {
    /// Three saves by an importer: inserts, an update of a title and a tag, a delete.
    private static func threeSaves(in context: ManagedObjectContext) throws -> (hoover: ManagedObjectID, quad: ManagedObjectID, tag: ManagedObjectID)
    {
        try context.performAndWait {
            context.name = "importer"
            context.transactionAuthor = "refresh"
            let hoover = Photo(context: context)
            hoover.unique = "hoover"
            hoover.title = "Hoover"
            let quad = Photo(context: context)
            quad.unique = "quad"
            let tag = Tag(context: context)
            tag.name = "campus"
            try context.save()

            hoover.title = "Hoover Tower"
            hoover.tags = [tag]
            try context.save()

            context.transactionAuthor = "cleanup"
            context.delete(quad)
            try context.save()
            return (hoover.objectID, quad.objectID, tag.objectID)
        }
    }

    @Test("each save records one transaction: author, context name, process, and every change with its type", arguments: StoreKind.allCases)
    func transactionsPerSave(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let context = container.newBackgroundContext()
        let ids = try Self.threeSaves(in: context)
        let transactions = try HistoryStack.transactions(after: nil, in: context)

        #expect(transactions.count == 3)
        #expect(transactions.map(\.transactionNumber) == transactions.map(\.transactionNumber).sorted())
        #expect(Set(transactions.map(\.transactionNumber)).count == 3)
        #expect(transactions.map(\.author) == ["refresh", "refresh", "cleanup"])
        #expect(transactions.allSatisfy { $0.contextName == "importer" })
        #expect(transactions.allSatisfy { !$0.bundleID.isEmpty && $0.processID == String(ProcessInfo.processInfo.processIdentifier) })
        #expect(transactions.allSatisfy { $0.storeID == container.persistentStoreCoordinator.persistentStores.first?.identifier })
        #expect(transactions.allSatisfy { abs($0.timestamp.timeIntervalSinceNow) < 60 })

        let inserts = try #require(transactions[0].changes)
        #expect(Set(inserts.map(\.changedObjectID)) == [ids.hoover, ids.quad, ids.tag])
        #expect(inserts.allSatisfy { $0.changeType == .insert && $0.updatedProperties == nil && $0.tombstone == nil })
        #expect(inserts.allSatisfy { $0.transaction === transactions[0] })

        // The update names the changed attribute and relationship; the tag changed through the
        // inverse relationship.
        let updates = try #require(transactions[1].changes)
        #expect(updates.allSatisfy { $0.changeType == .update })
        let hooverUpdate = try #require(updates.first { $0.changedObjectID == ids.hoover })
        #expect(Set(hooverUpdate.updatedProperties?.map(\.name) ?? []) == ["title", "tags"])
        #expect(hooverUpdate.updatedProperties?.allSatisfy { $0.entity?.name == "Photo" } == true)
        let tagUpdate = try #require(updates.first { $0.changedObjectID == ids.tag })
        #expect(tagUpdate.updatedProperties?.map(\.name) == ["photos"])

        // The delete keeps the preserved attribute's value, and only it.
        let deletes = try #require(transactions[2].changes)
        let quadDelete = try #require(deletes.first { $0.changedObjectID == ids.quad })
        #expect(quadDelete.changeType == .delete)
        #expect(quadDelete.tombstone?.count == 1)
        #expect(quadDelete.tombstone?["unique"] as? String == "quad")
        #expect(quadDelete.updatedProperties == nil)
        // Change IDs grow across transactions.
        let changeIDs = transactions.flatMap { $0.changes ?? [] }.map(\.changeID)
        #expect(changeIDs == changeIDs.sorted() && Set(changeIDs).count == changeIDs.count)
    }

    @Test(
        "a large save lists every new object once, in key order, with unique growing change IDs; new objects in relationships are inserts only",
        arguments: StoreKind.allCases
    )
    func largeSave(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let context = container.newBackgroundContext()
        let (photos, tags, updated) = try context.performAndWait {
            let first = Photo(context: context)
            first.unique = "first"
            try context.save()
            // Runs of keys on PostgreSQL (one history row each there): photos, tags, then
            // photos again after a gap of other entities' keys.
            var photos = (0..<150).map { index in
                let photo = Photo(context: context)
                photo.unique = "p\(index)"
                return photo
            }
            let tags = (0..<80).map { index in
                let tag = Tag(context: context)
                tag.name = "t\(index)"
                return tag
            }
            photos += (150..<220).map { index in
                let photo = Photo(context: context)
                photo.unique = "p\(index)"
                return photo
            }
            photos[3].tags = [tags[0], tags[1]]
            first.title = "First"
            try context.save()
            return (photos.map(\.objectID), tags.map(\.objectID), first.objectID)
        }
        let transactions = try HistoryStack.transactions(after: nil, in: context)
        try #require(transactions.count == 2)
        let changes = try #require(transactions[1].changes)
        let inserted = changes.filter { $0.changeType == .insert }.map(\.changedObjectID)
        #expect(inserted.count == photos.count + tags.count)
        #expect(Set(inserted) == Set(photos + tags))
        #expect(changes.filter { $0.changeType == .update }.map(\.changedObjectID) == [updated], "new objects with members are inserts only")
        #expect(changes.allSatisfy { $0.transaction === transactions[1] })
        let ids = changes.map(\.changeID)
        #expect(Set(ids).count == ids.count, "one change ID per object")
        #expect(ids == ids.sorted())
        #expect(transactions[0].changes?.allSatisfy { $0.changeID < ids[0] } == true)

        // Narrowed to one entity and to single objects, the runs still answer object by object.
        let fetchRequest = try #require(PersistentHistoryChange.fetchRequest)
        fetchRequest.predicate = FetchPredicate(format: "changedObjectID IN %@", [photos[0], photos[149], tags[79]])
        let request = PersistentHistoryChangeRequest.fetchHistory(withFetch: fetchRequest)
        request.resultType = .changesOnly
        let narrowed = try #require(try HistoryStack.run(request, in: context) as? [PersistentHistoryChange])
        #expect(Set(narrowed.map(\.changedObjectID)) == [photos[0], photos[149], tags[79]] && narrowed.count == 3)

        // The next save's changes come after all of them.
        try context.performAndWait {
            let last = Photo(context: context)
            last.unique = "last"
            try context.save()
        }
        let next = try #require(try HistoryStack.transactions(after: transactions[1].token, in: context).first?.changes)
        #expect(next.count == 1 && next[0].changeID > ids.max() ?? 0)
    }

    @Test(
        "fetching after a token, a transaction or a date returns only later transactions; result types shape the result",
        arguments: StoreKind.allCases
    )
    func fetchAfter(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let context = container.newBackgroundContext()
        let ids = try Self.threeSaves(in: context)
        let all = try HistoryStack.transactions(after: nil, in: context)
        try #require(all.count == 3)

        #expect(
            try HistoryStack.transactions(after: all[0].token, in: context).map(\.transactionNumber) == [all[1], all[2]].map(\.transactionNumber)
        )
        #expect(try HistoryStack.transactions(after: all[2].token, in: context).isEmpty)
        let afterTransaction = try HistoryStack.run(.fetchHistory(after: all[1]), in: context) as? [PersistentHistoryTransaction]
        #expect(afterTransaction?.map(\.transactionNumber) == [all[2].transactionNumber])
        let afterDate = try HistoryStack.run(.fetchHistory(after: all[0].timestamp), in: context) as? [PersistentHistoryTransaction]
        #expect(afterDate?.map(\.transactionNumber) == all.filter { $0.timestamp > all[0].timestamp }.map(\.transactionNumber))
        #expect((try HistoryStack.run(.fetchHistory(after: Date.distantFuture), in: context) as? [PersistentHistoryTransaction])?.isEmpty == true)
        #expect((try HistoryStack.run(.fetchHistory(after: Date.distantPast), in: context) as? [PersistentHistoryTransaction])?.count == 3)

        // The coordinator's current token is the last transaction's.
        #expect(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil) == all[2].token)
        #expect(all[0].token < all[1].token)

        func fetch(_ type: PersistentHistoryResultType, after token: PersistentHistoryToken? = nil) throws -> Any? {
            let request = PersistentHistoryChangeRequest.fetchHistory(after: token)
            request.resultType = type
            return try HistoryStack.run(request, in: context)
        }
        #expect(try fetch(.statusOnly) as? Bool == true)
        #expect(try fetch(.count) as? Int == 3)
        #expect(try fetch(.count, after: all[0].token) as? Int == 2)
        let transactionsOnly = try #require(try fetch(.transactionsOnly) as? [PersistentHistoryTransaction])
        #expect(transactionsOnly.count == 3 && transactionsOnly.allSatisfy { $0.changes == nil })
        #expect(transactionsOnly[0].contextDidSave.isEmpty)
        let changes = try #require(try fetch(.changesOnly, after: all[1].token) as? [PersistentHistoryChange])
        #expect(changes.map(\.changedObjectID) == [ids.quad])
        #expect(changes.first?.transaction?.transactionNumber == all[2].transactionNumber)
        let objectIDs = try #require(try fetch(.objectIDs, after: all[0].token) as? [ManagedObjectID])
        #expect(Set(objectIDs) == [ids.hoover, ids.tag, ids.quad] && objectIDs.count == 3)
    }

    @Test(
        "deleting history before a token keeps the token's transaction; a reader behind the deleted history is told its token expired",
        arguments: StoreKind.allCases
    )
    func deleteBefore(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let context = container.newBackgroundContext()
        _ = try Self.threeSaves(in: context)
        let all = try HistoryStack.transactions(after: nil, in: context)
        try #require(all.count == 3)

        func delete(before token: PersistentHistoryToken) -> PersistentHistoryChangeRequest {
            let request = PersistentHistoryChangeRequest.deleteHistory(before: token)
            request.resultType = .count
            return request
        }
        #expect(try HistoryStack.run(delete(before: all[1].token), in: context) as? Int == 1)
        #expect(try HistoryStack.transactions(after: nil, in: context).map(\.transactionNumber) == [all[1], all[2]].map(\.transactionNumber))
        // A reader that had merged up to the first transaction misses nothing: it still catches up.
        #expect(
            try HistoryStack.transactions(after: all[0].token, in: context).map(\.transactionNumber) == [all[1], all[2]].map(\.transactionNumber)
        )
        // Once the second transaction is deleted too, that reader would miss it: refused.
        #expect(try HistoryStack.run(delete(before: all[2].token), in: context) as? Int == 1)
        let expired = try #require(throws: ObjectGraphError.self) { try HistoryStack.transactions(after: all[0].token, in: context) }
        #expect(expired.code == .persistentHistoryTokenExpired)
        #expect(try HistoryStack.transactions(after: all[1].token, in: context).map(\.transactionNumber) == [all[2].transactionNumber])

        // Deleting everything keeps the numbering: the next save's transaction comes later.
        #expect(try HistoryStack.run(.deleteHistory(before: nil as PersistentHistoryToken?), in: context) as? Bool == true)
        #expect(try HistoryStack.transactions(after: nil, in: context).isEmpty)
        #expect(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil) == all[2].token)
        #expect(try HistoryStack.transactions(after: all[2].token, in: context).isEmpty)
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "oval"
            try context.save()
        }
        let next = try HistoryStack.transactions(after: all[2].token, in: context)
        #expect(next.count == 1 && next[0].transactionNumber > all[2].transactionNumber)

        // Deleting by date.
        let byDate = PersistentHistoryChangeRequest.deleteHistory(before: Date.distantFuture)
        byDate.resultType = .count
        #expect(try HistoryStack.run(byDate, in: context) as? Int == 1)
    }

    @Test(
        "a save that fails — validation, a uniqueness conflict, an optimistic-locking conflict under .error — records nothing",
        arguments: StoreKind.allCases
    )
    func failedSavesRecordNothing(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "hoover"
            try context.save()
            return photo.objectID
        }
        let before = try #require(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))

        context.performAndWait {
            _ = Photo(context: context)  // no unique: required
            #expect(throws: ObjectGraphError.self) { try context.save() }
            context.rollback()
            let duplicate = Photo(context: context)
            duplicate.unique = "hoover"
            #expect(throws: ObjectGraphError.self) { try context.save() }
            context.rollback()
        }
        // Two contexts read the photo; the first saves, the second conflicts.
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        let held = try [first, second].map { other in
            try other.performAndWait { () throws in
                let photo = try #require(try other.existingObject(with: id) as? Photo)
                _ = photo.title
                return photo
            }
        }
        try first.performAndWait {
            held[0].title = "first"
            try first.save()
        }
        second.performAndWait {
            second.mergePolicy = .error
            held[1].title = "second"
            #expect(throws: ObjectGraphError.self) { try second.save() }
        }
        let after = try HistoryStack.transactions(after: before, in: context)
        #expect(after.count == 1)
        #expect(after.first?.changes?.map(\.changedObjectID) == [id])
        #expect(after.first?.changes?.first?.updatedProperties?.map(\.name) == ["title"])
    }

    // SQLite only: it opens the file with raw SQL to show no history table was created, and
    // only SQLite stores make tracking optional (a PostgreSQL store always records history:
    // other instances on the schema follow it through it).
    @Test("without tracking, saves record nothing and history requests throw, naming the option")
    func trackingOff() throws {
        let url = HistoryStack.temporaryURL()
        let container = try HistoryStack.container(at: url, tracking: false)
        let context = container.newBackgroundContext()
        _ = try Self.threeSaves(in: context)
        let error = try #require(throws: ObjectGraphError.self) { try HistoryStack.transactions(after: nil, in: context) }
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains(PersistentStore.persistentHistoryTrackingOption))
        #expect(throws: ObjectGraphError.self) { try HistoryStack.run(.deleteHistory(before: Date()), in: context) }
        #expect(container.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil) == nil)
        let tables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z_HISTORY%'")
        }
        #expect(tables.isEmpty)
    }

    // SQLite only: it reopens the same file without the tracking option, which a PostgreSQL
    // store does not have (it always records history).
    @Test("a store with history keeps recording when opened without the option, and a token of another store is refused")
    func reopenWithoutOption() throws {
        let url = HistoryStack.temporaryURL()
        let tracked = try HistoryStack.container(at: url)
        let writer = tracked.newBackgroundContext()
        try writer.performAndWait {
            let photo = Photo(context: writer)
            photo.unique = "hoover"
            try writer.save()
        }
        let untracked = try HistoryStack.container(at: url, tracking: false)
        let context = untracked.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "quad"
            try context.save()
        }
        #expect(try HistoryStack.transactions(after: nil, in: context).count == 2)

        let other = try HistoryStack.container(at: HistoryStack.temporaryURL())
        let otherContext = other.newBackgroundContext()
        try otherContext.performAndWait {
            let photo = Photo(context: otherContext)
            photo.unique = "oval"
            try otherContext.save()
        }
        let foreign = try #require(other.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))
        let error = try #require(throws: ObjectGraphError.self) { try HistoryStack.transactions(after: foreign, in: context) }
        #expect(error.code == .invalidRequest)
        #expect(error.message.contains(foreign.storeIdentifier))

        // Tokens survive encoding, as apps keep them between launches.
        let decoded = try JSONDecoder().decode(PersistentHistoryToken.self, from: JSONEncoder().encode(foreign))
        #expect(decoded == foreign)
    }
}
