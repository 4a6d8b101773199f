import Foundation
import ObjectGraph
import Testing

/// `PersistentHistoryChangeRequest.fetchRequest`: history narrowed by a predicate on
/// transactions (the "changes by other authors" idiom of Core Data apps) or on changes.
@Suite("Persistent history: fetch requests")
struct PersistentHistoryFetchRequestTests {
    /// Saves by three authors: the app inserts two photos, the importer inserts a tag and
    /// renames a photo, the app deletes a photo.
    private static func saves(in context: ManagedObjectContext) throws {
        try context.performAndWait {
            context.transactionAuthor = "app"
            let hoover = Photo(context: context)
            hoover.unique = "hoover"
            let quad = Photo(context: context)
            quad.unique = "quad"
            try context.save()
            context.transactionAuthor = "importer"
            let tag = Tag(context: context)
            tag.name = "campus"
            hoover.title = "Hoover Tower"
            try context.save()
            context.transactionAuthor = "app"
            context.delete(quad)
            try context.save()
        }
    }

    private static func transactions(
        _ request: PersistentHistoryChangeRequest,
        in context: ManagedObjectContext
    ) throws -> [PersistentHistoryTransaction] {
        try #require(try HistoryStack.run(request, in: context) as? [PersistentHistoryTransaction])
    }

    @Test("a predicate on transactions keeps other authors' saves only", arguments: StoreKind.allCases)
    func otherAuthors(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let context = container.newBackgroundContext()
        try Self.saves(in: context)
        let fetchRequest = try #require(PersistentHistoryTransaction.fetchRequest)
        fetchRequest.predicate = FetchPredicate(format: "%K != %@", "author", "app")
        let request = PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?)
        request.fetchRequest = fetchRequest
        let transactions = try Self.transactions(request, in: context)
        #expect(transactions.map(\.author) == ["importer"])
        #expect(transactions.first?.changes?.count == 2, "the tag's insert and the photo's update")

        let withFetch = PersistentHistoryChangeRequest.fetchHistory(withFetch: fetchRequest)
        withFetch.resultType = .count
        #expect(try HistoryStack.run(withFetch, in: context) as? Int == 1)

        // The "after a token" bound still holds, and fetchLimit takes the first matches.
        let all = try HistoryStack.transactions(after: nil, in: context)
        let appOnly = try #require(PersistentHistoryTransaction.fetchRequest)
        appOnly.predicate = FetchPredicate(format: "author == 'app'")
        appOnly.fetchLimit = 1
        let afterFirst = PersistentHistoryChangeRequest.fetchHistory(after: all[0].token)
        afterFirst.fetchRequest = appOnly
        #expect(try Self.transactions(afterFirst, in: context).map(\.transactionNumber) == [all[2].transactionNumber])
    }

    @Test("a predicate on changes keeps the matching changes and the transactions holding them", arguments: StoreKind.allCases)
    func changesOfOneEntity(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let context = container.newBackgroundContext()
        try Self.saves(in: context)
        let photo = try #require(container.managedObjectModel.entitiesByName["Photo"])
        let fetchRequest = try #require(PersistentHistoryChange.fetchRequest)
        fetchRequest.predicate = FetchPredicate(
            format: "changedEntity == %@ AND changeType == %d",
            photo,
            PersistentHistoryChangeType.insert.rawValue
        )
        let request = PersistentHistoryChangeRequest.fetchHistory(withFetch: fetchRequest)
        let transactions = try Self.transactions(request, in: context)
        #expect(transactions.map(\.author) == ["app"], "only the first save inserted photos")
        #expect(transactions.first?.changes?.map(\.changeType) == [.insert, .insert])

        request.resultType = .changesOnly
        let changes = try #require(try HistoryStack.run(request, in: context) as? [PersistentHistoryChange])
        #expect(changes.count == 2 && changes.allSatisfy { $0.changedObjectID.entityName == "Photo" && $0.transaction?.author == "app" })

        request.resultType = .transactionsOnly
        let bare = try Self.transactions(request, in: context)
        #expect(bare.count == 1 && bare[0].changes == nil)

        let deletes = try #require(PersistentHistoryChange.fetchRequest)
        deletes.predicate = FetchPredicate(format: "changeType == %d", PersistentHistoryChangeType.delete.rawValue)
        let deleteRequest = PersistentHistoryChangeRequest.fetchHistory(withFetch: deletes)
        deleteRequest.resultType = .objectIDs
        let ids = try #require(try HistoryStack.run(deleteRequest, in: context) as? [ManagedObjectID])
        #expect(ids.count == 1 && ids[0].entityName == "Photo")
    }

    @Test("a fetch request on another entity is refused, naming the ones it may use", arguments: StoreKind.allCases)
    func otherEntityRefused(store: StoreKind) throws {
        let container = try HistoryStack.container(store)
        let context = container.newBackgroundContext()
        try Self.saves(in: context)
        let request = PersistentHistoryChangeRequest.fetchHistory(withFetch: FetchRequest(entityName: "Photo"))
        let error = try #require(throws: ObjectGraphError.self) { try HistoryStack.run(request, in: context) }
        #expect(error.code == .invalidRequest)
        #expect("\(error)".contains("PersistentHistoryTransaction") && "\(error)".contains("'Photo'"))
    }
}
