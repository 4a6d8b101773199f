import Dispatch
import Foundation
import ObjectGraph
import ObjectGraphPostgres
import Synchronization
import Testing

/// Opening PostgreSQL stores: the description names type and location, as in Core Data; errors
/// name the server and never its password.
@Suite("PostgreSQL: opening stores")
struct PostgreSQLStoreOpeningTests {
    @Test("a server that does not answer gives an error naming the server, without the password")
    func unreachableServer() throws {
        // A port nobody listens on: bound, then released.
        PersistentStoreCoordinator.registerPostgreSQLStoreType()
        let url = try #require(URL(string: "postgres://someone:secret-password@127.0.0.1:1/nowhere"))
        let container = PersistentContainer(name: "Test", managedObjectModel: SPoTModel.make())
        container.persistentStoreDescriptions = [PersistentStoreDescription(postgreSQLURL: url)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        let error = try #require(loadError as? ObjectGraphError)
        #expect(error.code == .persistentStoreOperation)
        #expect(error.message.contains("postgres://someone@127.0.0.1:1/nowhere"), "\(error.message)")
        #expect(!"\(error)".contains("secret-password"))
        #expect(error.cause?.file == "postgres://someone@127.0.0.1:1/nowhere")
    }

    @Test("instances opening one new schema at the same moment all open it, with one set of tables")
    func concurrentFirstOpens() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let opened = Mutex<[Result<Int, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { index in
            let result = Result {
                let container = PersistentContainer(name: "Test", managedObjectModel: SPoTModel.make())
                container.persistentStoreDescriptions = [PersistentStoreDescription(postgreSQLURL: url)]
                var loadError: (any Error)?
                container.loadPersistentStores { _, error in loadError = error }
                if let loadError { throw loadError }
                let context = container.newBackgroundContext()
                return try context.performAndWait {
                    Photo(context: context).unique = "photo \(index)"
                    try context.save()
                    return try context.count(for: FetchRequest<Photo>(entityName: "Photo"))
                }
            }
            opened.withLock { $0.append(result) }
        }
        let counts = try opened.withLock { try $0.map { try $0.get() } }
        #expect(counts.count == 4 && counts.allSatisfy { (1...4).contains($0) })
        #expect(try PostgresShell.run(#"SELECT count(*) FROM "ZPHOTO""#, in: url) == ["4"])
    }

    @Test("a schema holding another model's store is refused, and left as it was")
    func otherModel() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        _ = try TestStack(description: PersistentStoreDescription(postgreSQLURL: url))
        let other = ManagedObjectModel {
            EntityDescription("Note") { AttributeDescription("text", .string) }
        }
        #expect {
            try TestStack(description: PersistentStoreDescription(postgreSQLURL: url), model: other)
        } throws: { error in
            (error as? ObjectGraphError)?.code == .persistentStoreIncompatibleVersionHash
        }
        // The first model still opens it, its data intact.
        let stack = try TestStack(description: PersistentStoreDescription(postgreSQLURL: url))
        let context = stack.container.newBackgroundContext()
        let count = try context.performAndWait { try context.count(for: Photo.fetchRequest()) }
        #expect(count == 0)
    }

    @Test("a postgres:// URL with the default store type opens a PostgreSQL store once the type is registered")
    func urlSelectsType() throws {
        let url = try StoreKind.newPostgresSchemaURL()  // registers the type
        let stack = try TestStack(description: PersistentStoreDescription(url: url))
        let store = try #require(stack.container.persistentStoreCoordinator.persistentStores.first)
        #expect(store.type == .postgreSQL)
        #expect(store.metadata["storeUUID"] == store.identifier)
    }

    @Test("a URL of a scheme no store type registered is refused, naming the scheme; no file is made")
    func unregisteredScheme() throws {
        let url = try #require(URL(string: "nosuchdb://someone@127.0.0.1:1/nowhere"))
        let error = try #require(throws: ObjectGraphError.self) {
            try TestStack(description: PersistentStoreDescription(url: url))
        }
        #expect(error.code == .persistentStoreInvalidType)
        #expect(error.message.contains("nosuchdb://"), "\(error.message)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }
}
