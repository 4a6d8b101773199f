import Foundation
import ObjectGraph
import ObjectGraphPostgres
import TestSupport
import Testing

/// The stores the store-level suites run on, from one parameterised source: an SQLite file, the
/// in-memory store, and a PostgreSQL schema of its own on the test server.
enum StoreKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case sqlite
    case inMemory
    case postgreSQL

    var testDescription: String { rawValue }

    /// The stores a migration applies to: those that keep data between opens. The in-memory
    /// store starts empty every time, so no version of a model ever wrote what it opens.
    static let migrating: [StoreKind] = [.sqlite, .postgreSQL]

    /// A store description for a new, empty store of this kind: a new file, memory, or a new
    /// schema on the test server (so tests run in parallel without seeing each other).
    ///
    /// - Throws: ``TestPostgres/MissingServer`` for PostgreSQL when no server is given.
    func newDescription() throws -> PersistentStoreDescription {
        switch self {
        case .sqlite:
            let url = TestDirectory.make("objectgraph-tests")
                .appendingPathComponent("Test.sqlite")
            return PersistentStoreDescription(url: url)
        case .inMemory:
            let description = PersistentStoreDescription()
            description.type = InMemoryStoreType
            return description
        case .postgreSQL:
            return PersistentStoreDescription(postgreSQLURL: try Self.newPostgresSchemaURL())
        }
    }

    /// The test server's URL with a new schema, `<prefix>_<uuid>`. The PostgreSQL store type is
    /// registered first: the tests are their program's root, as `spot` is for the app.
    static func newPostgresSchemaURL(prefix: String = "t") throws -> URL {
        PersistentStoreCoordinator.registerPostgreSQLStoreType()
        return try TestPostgres.newSchemaURL(prefix: prefix)
    }
}

extension TestStack {
    /// A container on a new, empty store of `kind`.
    init(_ kind: StoreKind, model: ManagedObjectModel = SPoTModel.make()) throws {
        try self.init(description: kind.newDescription(), model: model)
    }
}
