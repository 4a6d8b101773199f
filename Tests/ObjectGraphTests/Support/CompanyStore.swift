import Foundation
import GRDB
import ObjectGraph
import ObjectGraphPostgres
import TestSupport
import Testing

/// Stores of the `Company.xcdatamodeld` fixture (four versions), for migration tests.
enum CompanyStore {
    /// The bundle, read afresh (a container freezes the models it loads).
    static func bundle() throws -> ManagedObjectModelBundle {
        try ManagedObjectModelBundle(contentsOf: XcodeFixtures.url("Company.xcdatamodeld"))
    }

    /// A store file in a new temporary folder (not created yet), or for `.postgreSQL` a new
    /// schema on the test server.
    static func temporaryURL(_ kind: StoreKind = .sqlite) throws -> URL {
        switch kind {
        case .sqlite: try XcodeFixtures.temporaryFolder().appendingPathComponent("Company.sqlite")
        case .postgreSQL: try StoreKind.newPostgresSchemaURL()
        case .inMemory: throw NotMigrated()
        }
    }

    /// The in-memory store keeps nothing between opens, so there is no store to migrate.
    struct NotMigrated: Error {}

    /// A description of the store at `url`: an SQLite file, or a PostgreSQL schema.
    static func description(_ url: URL) -> PersistentStoreDescription {
        url.isFileURL ? PersistentStoreDescription(url: url) : PersistentStoreDescription(postgreSQLURL: url)
    }

    /// The store as errors name it: the file's path, or the server's URL without a password.
    static func name(_ url: URL) -> String {
        guard !url.isFileURL, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.path }
        components.password = nil
        return components.string ?? url.absoluteString
    }

    /// What a refusal says of the store it left alone.
    static func unchanged(_ url: URL) -> String {
        url.isFileURL ? "the file was not changed" : "nothing was changed"
    }

    /// The metadata JSON the store keeps (`Z_METADATA.Z_PLIST`), decoded.
    static func metadata(at url: URL) throws -> [String: Any]? {
        let json: Data?
        if url.isFileURL {
            json = try DatabaseQueue(path: url.path).read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") }
        } else {
            json = try PostgresShell.run(#"SELECT "Z_PLIST" FROM "Z_METADATA""#, in: url).first.map { Data($0.utf8) }
        }
        return try JSONSerialization.jsonObject(with: try #require(json)) as? [String: Any]
    }

    /// A container on version `version` of `bundle` for the store at `url`, migrating through
    /// the bundle's versions; `configure` adjusts the description before loading.
    static func open(
        _ version: String,
        of bundle: ManagedObjectModelBundle,
        at url: URL,
        stages: [MigrationStage] = [],
        configure: (PersistentStoreDescription) -> Void = { _ in }
    ) throws -> PersistentContainer {
        let model = try #require(bundle.version(named: version)?.model)
        let container = PersistentContainer(name: "Company", managedObjectModel: model)
        let description = Self.description(url)
        description.setOption(StagedMigrationManager(bundle: bundle, stages: stages), forKey: PersistentStore.stagedMigrationManagerOption)
        configure(description)
        container.persistentStoreDescriptions = [description]
        try load(container)
        return container
    }

    /// Loads `container`'s stores, throwing the first error.
    static func load(_ container: PersistentContainer) throws {
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = loadError ?? error }
        if let loadError { throw loadError }
    }

    /// Writes version 1 ("Company") data: three companies (one without employees) and four
    /// people (one without a name, two without an email, one without an employer).
    static func writeVersion1(at url: URL) throws {
        let container = try open("Company", of: bundle(), at: url)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var companies: [String: ManagedObject] = [:]
            for name in ["Acme", "Globex", "Initech"] {
                let company = try context.insertObject(entityName: "Company")
                company.setValue(name, forKey: "name")
                companies[name] = company
            }
            let people: [(String?, String?, String?)] = [
                ("Ada", "ada@acme.com", "Acme"), ("Bob", nil, "Acme"), (nil, "cy@globex.com", "Globex"), ("Dee", nil, nil),
            ]
            for (name, email, employer) in people {
                let person = try context.insertObject(entityName: "Person")
                person.setValue(name, forKey: "name")
                person.setValue(email, forKey: "email")
                person.setValue(employer.flatMap { companies[$0] }, forKey: "employer")
            }
            try context.save()
        }
    }

    /// Every object of `entity`, as `describe` turns it into text, sorted.
    static func all(_ entity: String, in container: PersistentContainer, _ describe: @escaping (ManagedObject) -> String) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: entity)).map(describe).sorted()
        }
    }

    /// The SQL of every statement that creates an index, as `sqlite_master` lists them.
    static func indexes(at url: URL) throws -> [String] {
        let queue = try DatabaseQueue(path: url.path)
        return try queue.read { db in try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") }
    }
}
