import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport
import Testing

/// Stores created before PostgreSQL history kept an update's changed properties and a delete's
/// tombstone gain the two columns when opened, and still read what they recorded before.
@Suite("PostgreSQL: history of stores created before changed properties and tombstones")
struct PostgreSQLHistoryUpgradeTests {
    /// A container on the store at `url`, with the history test model (Photo.unique kept in
    /// tombstones).
    private static func open(_ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "History", managedObjectModel: try HistoryStack.model())
        container.persistentStoreDescriptions = [PersistentStoreDescription(postgreSQLURL: url)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    @Test("opening an older store adds the columns; later saves record changed properties and tombstones")
    func olderStoreGainsColumns() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let schema = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value)
        let older = try Self.open(url)
        let writer = older.newBackgroundContext()
        let id = try writer.performAndWait {
            let photo = Photo(context: writer)
            photo.unique = "quad"
            try writer.save()
            return photo.objectID
        }
        // What a store created before the three columns looks like.
        _ = try PostgresShell.run(
            #"ALTER TABLE "\#(schema)"."Z_HISTORYCHANGE" DROP COLUMN "ZCOLUMNS", DROP COLUMN "ZTOMBSTONE", DROP COLUMN "ZLASTOBJECT""#,
            in: url
        )

        let newer = try Self.open(url)
        let context = newer.newBackgroundContext()
        try context.performAndWait {
            let photo = try #require(try context.existingObject(with: id) as? Photo)
            photo.title = "Quad"
            try context.save()
            context.delete(photo)
            try context.save()
        }
        let transactions = try HistoryStack.transactions(after: nil, in: context)
        try #require(transactions.count == 3)
        #expect(transactions[0].changes?.map(\.changeType) == [.insert])
        #expect(transactions[1].changes?.first?.updatedProperties?.map(\.name) == ["title"])
        #expect(transactions[2].changes?.first?.tombstone?["unique"] as? String == "quad")
    }

    @Test("a store created before runs of inserts: opened, its old rows read, a large save's objects each listed")
    func olderStoreGainsRuns() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let schema = try #require(URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?.first { $0.name == "schema" }?.value)
        let older = try Self.open(url)
        let writer = older.newBackgroundContext()
        let first = try writer.performAndWait {
            let photo = Photo(context: writer)
            photo.unique = "quad"
            try writer.save()
            return photo.objectID
        }
        _ = try PostgresShell.run(#"ALTER TABLE "\#(schema)"."Z_HISTORYCHANGE" DROP COLUMN "ZLASTOBJECT""#, in: url)

        let newer = try Self.open(url)
        let context = newer.newBackgroundContext()
        let added = try context.performAndWait {
            let photos = (0..<100).map { index in
                let photo = Photo(context: context)
                photo.unique = "p\(index)"
                return photo
            }
            try context.save()
            return photos.map(\.objectID)
        }
        let transactions = try HistoryStack.transactions(after: nil, in: context)
        try #require(transactions.count == 2)
        #expect(transactions[0].changes?.map(\.changedObjectID) == [first])
        #expect(transactions[1].changes?.map(\.changedObjectID).sorted { $0.primaryKey < $1.primaryKey } == added)
        #expect(transactions[1].changes?.allSatisfy { $0.changeType == .insert } == true)
    }
}
