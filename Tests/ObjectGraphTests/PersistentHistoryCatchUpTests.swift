import Foundation
import GRDB
import ObjectGraph
import Testing

@Suite("Persistent history: catching up another container, migrations")
struct PersistentHistoryCatchUpTests {
    /// Unique and title of each photo, as `describe` lists them.
    private static func describe(_ photos: [Photo]) -> [String] {
        photos.map { "\($0.unique ?? "?"): \($0.title ?? "-")" }
    }

    @MainActor
    @Test(
        "a second container on the same file merges each transaction after its token; its live fetched results controller then equals a fresh fetch"
    )
    func secondContainerCatchesUp() throws {
        let url = HistoryStack.temporaryURL()
        let writer = try HistoryStack.container(at: url)
        let background = writer.newBackgroundContext()
        background.transactionAuthor = "writer"
        let ids = try background.performAndWait {
            var ids: [String: ManagedObjectID] = [:]
            for (unique, title) in [("hoover", "B Hoover"), ("quad", "C Quad"), ("oval", "D Oval")] {
                let photo = Photo(context: background)
                photo.unique = unique
                photo.title = title
                ids[unique] = photo.objectID
            }
            try background.save()
            return ids
        }

        let reader = try HistoryStack.container(at: url)
        let view = reader.viewContext
        var token = reader.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil)
        let request = Photo.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
        let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: view, sectionNameKeyPath: nil, cacheName: nil)
        try controller.performFetch()
        #expect(Self.describe(controller.fetchedObjects ?? []) == ["hoover: B Hoover", "quad: C Quad", "oval: D Oval"])

        // The other container saves several times: a retitle that moves a row, an insert, a
        // delete, and an object inserted and deleted again before the reader catches up.
        try background.performAndWait {
            let ovalID = try #require(ids["oval"])
            let quadID = try #require(ids["quad"])
            let oval = try #require(try background.existingObject(with: ovalID) as? Photo)
            oval.title = "A Oval"
            try background.save()
            let arch = Photo(context: background)
            arch.unique = "arch"
            arch.title = "E Arch"
            let tag = Tag(context: background)
            tag.name = "campus"
            arch.tags = [tag]
            try background.save()
            background.delete(try background.existingObject(with: quadID))
            try background.save()
            let brief = Photo(context: background)
            brief.unique = "brief"
            brief.title = "F Brief"
            try background.save()
            background.delete(brief)
            try background.save()
        }
        // Nothing reaches the reader by itself: another coordinator's saves are only in history.
        #expect(Self.describe(controller.fetchedObjects ?? []) == ["hoover: B Hoover", "quad: C Quad", "oval: D Oval"])

        let transactions = try HistoryStack.transactions(after: token, in: view)
        #expect(transactions.count == 5)
        #expect(transactions.allSatisfy { $0.author == "writer" })
        for transaction in transactions {
            view.mergeChanges(fromContextDidSave: transaction.objectIDNotification())
            token = transaction.token
        }
        #expect(token == reader.persistentStoreCoordinator.currentPersistentHistoryToken(fromStores: nil))

        let fresh = reader.newBackgroundContext()
        let expected = try fresh.performAndWait { Self.describe(try fresh.fetch(request)) }
        #expect(expected == ["oval: A Oval", "hoover: B Hoover", "arch: E Arch"])
        #expect(Self.describe(controller.fetchedObjects ?? []) == expected)
        #expect(try HistoryStack.transactions(after: token, in: view).isEmpty)
    }

    @Test("a migration keeps the history tables and their transactions; the migrated store records on")
    func migrationKeepsHistory() throws {
        let url = try CompanyStore.temporaryURL()
        let bundle = try CompanyStore.bundle()
        let tracking: (PersistentStoreDescription) -> Void = { $0.setOption(true, forKey: PersistentStore.persistentHistoryTrackingOption) }
        let version1 = try CompanyStore.open("Company", of: bundle, at: url, configure: tracking)
        let context = version1.newBackgroundContext()
        try context.performAndWait {
            context.transactionAuthor = "version 1"
            let company = try context.insertObject(entityName: "Company")
            company.setValue("Acme", forKey: "name")
            try context.save()
        }

        let version3 = try CompanyStore.open("Company 3", of: try CompanyStore.bundle(), at: url, configure: tracking)
        let migrated = version3.newBackgroundContext()
        try migrated.performAndWait {
            migrated.transactionAuthor = "version 3"
            let organization = try migrated.insertObject(entityName: "Organization")
            organization.setValue("Globex", forKey: "name")
            try migrated.save()
        }
        let transactions = try HistoryStack.transactions(after: nil, in: migrated)
        #expect(transactions.map(\.author) == ["version 1", "version 3"])
        #expect(transactions.first?.changes?.first?.changedObjectID.entityName == "Company")
        #expect(transactions.last?.changes?.first?.changedObjectID.entityName == "Organization")
        let tables = try DatabaseQueue(path: url.path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z_HISTORY%' ORDER BY name")
        }
        #expect(tables == ["Z_HISTORYCHANGE", "Z_HISTORYTOMBSTONE", "Z_HISTORYTRANSACTION"])
    }
}
