import Dispatch
import Foundation
import ObjectGraph
import ObjectGraphPostgres
import Synchronization
import Testing

/// Migrations of PostgreSQL schemas that SQLite files cannot show: one transaction, so a
/// failure anywhere leaves tables, rows and metadata as they were; several instances opening
/// one schema at once; schemas from before the store kept its model.
@Suite("PostgreSQL: migrations")
struct PostgreSQLMigrationTests {
    /// Version 1 of Company with a new Person.note, and Person.email required with no default:
    /// Bob and Dee have none.
    private static func emailRequired() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Company") {
                AttributeDescription("name", .string, optional: false)
                RelationshipDescription("employees", to: "Person", inverse: "employer", toMany: true)
            }
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                AttributeDescription("email", .string, optional: false)
                AttributeDescription("note", .string)
                RelationshipDescription("employer", to: "Company", inverse: "employees")
            }
        }
    }

    /// The version-1 data, as the version-1 model reads it.
    private static func version1Data(_ url: URL) throws -> [String] {
        let container = try CompanyStore.open("Company", of: try CompanyStore.bundle(), at: url)
        let companies = try CompanyStore.all("Company", in: container) { $0.value(forKey: "name") as? String ?? "?" }
        let people = try CompanyStore.all("Person", in: container) { person in
            "\(person.value(forKey: "name") as? String ?? "-") <\(person.value(forKey: "email") as? String ?? "nil")> at \(person.value(forKeyPath: "employer.name") as? String ?? "-")"
        }
        return companies + people
    }

    private static let version1 = [
        "Acme", "Globex", "Initech", "- <cy@globex.com> at Globex", "Ada <ada@acme.com> at Acme", "Bob <nil> at Acme", "Dee <nil> at -",
    ]

    @Test("a migration that cannot hold (a required value missing) is rolled back: tables, rows and metadata as they were")
    func refusedMidway() throws {
        let url = try CompanyStore.temporaryURL(.postgreSQL)
        try CompanyStore.writeVersion1(at: url)
        let tables = try PostgresShell.tables(in: url)
        let metadata = try PostgresShell.run(#"SELECT "Z_MODELHASH", "Z_PLIST" FROM "Z_METADATA""#, in: url)

        // The check runs after the old tables were renamed and the new ones filled.
        let container = PersistentContainer(name: "Company", managedObjectModel: Self.emailRequired())
        container.persistentStoreDescriptions = [CompanyStore.description(url)]
        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.load(container) }
        #expect(error.code == .migrationFailed)
        #expect(error.message.hasSuffix("1 change cannot be migrated; nothing was changed"), "\(error.message)")
        #expect(error.differences == ["Person.email: now required without a default value, but 2 objects in the store have no value"])

        #expect(try PostgresShell.tables(in: url) == tables)
        #expect(try PostgresShell.run(#"SELECT "Z_MODELHASH", "Z_PLIST" FROM "Z_METADATA""#, in: url) == metadata)
        #expect(try Self.version1Data(url) == Self.version1)
    }

    @Test("changes that cannot be inferred fail listing every change, as on SQLite, and the schema is as it was")
    func uninferableChanges() throws {
        let url = try CompanyStore.temporaryURL(.postgreSQL)
        try CompanyStore.writeVersion1(at: url)
        let tables = try PostgresShell.tables(in: url)
        let container = PersistentContainer(name: "Company", managedObjectModel: MigrationRefusalTests.uninferable())
        container.persistentStoreDescriptions = [CompanyStore.description(url)]
        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.load(container) }
        #expect(error.code == .migrationFailed)
        #expect(error.message.contains(CompanyStore.name(url)) && error.message.hasSuffix("5 changes cannot be migrated; nothing was changed"))
        #expect(
            error.differences == [
                "Company.name: the type changed from string to integer64 (Company.name in the store); a type change is not a lightweight migration",
                "Company.employees: a to-many relationship became to-one, but 1 object in the store has more than one Person",
                "Person.email: now required without a default value, but 2 objects in the store have no value",
                "Person.age: a new required attribute without a default value; 4 objects in the store would have none",
                "Person.employer: required, but 1 object in the store has no Company",
            ]
        )
        #expect(try PostgresShell.tables(in: url) == tables)
        #expect(try Self.version1Data(url) == Self.version1)
    }

    @Test("a server error in the migration's last statement rolls all of it back")
    func failureInjected() throws {
        let url = try CompanyStore.temporaryURL(.postgreSQL)
        try CompanyStore.writeVersion1(at: url)
        // Rewriting Z_PRIMARYKEY comes after every table was created, filled and dropped.
        try PostgresShell.run(
            """
            CREATE FUNCTION og_test_fail() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$;
            CREATE TRIGGER og_test_fail BEFORE INSERT ON "Z_PRIMARYKEY" FOR EACH ROW EXECUTE FUNCTION og_test_fail();
            """,
            in: url
        )
        let tables = try PostgresShell.tables(in: url)
        let keys = try PostgresShell.run(#"SELECT * FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#, in: url)

        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.open("Company 3", of: try CompanyStore.bundle(), at: url) }
        #expect(error.code == .migrationFailed)
        #expect(error.message.contains("could not be migrated from 'Company' to 'Company 2'"), "\(error.message)")
        #expect("\(error)".contains("injected failure"))

        #expect(try PostgresShell.tables(in: url) == tables)
        #expect(try PostgresShell.run(#"SELECT * FROM "Z_PRIMARYKEY" ORDER BY "Z_ENT""#, in: url) == keys)
        #expect(try Self.version1Data(url) == Self.version1)

        // Without the fault, the same schema migrates.
        try PostgresShell.run(#"DROP TRIGGER og_test_fail ON "Z_PRIMARYKEY""#, in: url)
        let container = try CompanyStore.open("Company 3", of: try CompanyStore.bundle(), at: url)
        #expect(try CompanyStore.all("Organization", in: container) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech"])
    }

    @Test("instances opening one schema at once: one migrates, the others wait and open it migrated")
    func concurrentOpens() throws {
        let url = try CompanyStore.temporaryURL(.postgreSQL)
        try CompanyStore.writeVersion1(at: url)
        let results = Mutex<[Result<Int, any Error>]>([])
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            let result = Result {
                let container = try CompanyStore.open("Company 3", of: try CompanyStore.bundle(), at: url)
                return try CompanyStore.all("Person", in: container) { _ in "" }.count
            }
            results.withLock { $0.append(result) }
        }
        let counts = try results.withLock { try $0.map { try $0.get() } }
        #expect(counts == [4, 4, 4])

        // Opened after: nothing to migrate. The old version is refused, as the store is newer.
        let after = try CompanyStore.open("Company 3", of: try CompanyStore.bundle(), at: url)
        #expect(try CompanyStore.all("Party", in: after) { $0.entity.name }.count == 4)
        #expect(try PostgresShell.tables(in: url).allSatisfy { !$0.hasPrefix("Z_OLD_") })
        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.open("Company", of: try CompanyStore.bundle(), at: url) }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(error.message.contains("written with model version 'Company 3', and the model is version 'Company'"), "\(error.message)")
    }

    @Test("an instance still open with the old model when another migrates: its next save is refused with nothing written, and so is every later read")
    func oldModelInstanceRefused() throws {
        let url = try CompanyStore.temporaryURL(.postgreSQL)
        try CompanyStore.writeVersion1(at: url)
        let old = try CompanyStore.open("Company", of: try CompanyStore.bundle(), at: url)
        #expect(try CompanyStore.all("Company", in: old) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech"])

        // Version 3 renames Company to Organization and adds Address: entity codes move.
        let migrated = try CompanyStore.open("Company 3", of: try CompanyStore.bundle(), at: url)
        let context = old.newBackgroundContext()
        let error = try #require(throws: ObjectGraphError.self) {
            try context.performAndWait {
                let company = try context.insertObject(entityName: "Company")
                company.setValue("Hooli", forKey: "name")
                try context.save()
            }
        }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(error.message.contains("another instance migrated the store"), "\(error.message)")
        #expect(error.message.contains("nothing was read or saved"), "\(error.message)")
        #expect(try CompanyStore.all("Organization", in: migrated) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech"])

        let readError = try #require(throws: ObjectGraphError.self) { try CompanyStore.all("Company", in: old) { _ in "" } }
        #expect(readError.code == .persistentStoreIncompatibleVersionHash)
        // The migrated instance goes on.
        let organizations = migrated.newBackgroundContext()
        try organizations.performAndWait {
            let organization = try organizations.insertObject(entityName: "Organization")
            organization.setValue("Hooli", forKey: "name")
            try organizations.save()
        }
        #expect(try CompanyStore.all("Organization", in: migrated) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Hooli", "Initech"])
    }

    @Test("a schema from before the store kept its model: its version records it, then newer ones migrate")
    func hashOnlySchema() throws {
        let url = try CompanyStore.temporaryURL(.postgreSQL)
        try CompanyStore.writeVersion1(at: url)
        // As the store wrote its metadata before: the model's hash, not the model.
        try PostgresShell.run(#"ALTER TABLE "Z_METADATA" DROP COLUMN "Z_PLIST""#, in: url)
        let model3 = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Company.xcdatamodeld/Company 3.xcdatamodel"))
        func open3() throws -> PersistentContainer {
            let container = PersistentContainer(name: "Company", managedObjectModel: model3)
            container.persistentStoreDescriptions = [CompanyStore.description(url)]
            try CompanyStore.load(container)
            return container
        }
        let error = try #require(throws: ObjectGraphError.self) { try open3() }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(error.message.contains("holds only that version's hash, not its model (Z_METADATA has no Z_PLIST"), "\(error.message)")
        #expect(error.message.hasSuffix("nothing was changed"))

        // Its own version opens it as it is, and keeps the model; then version 3 migrates it.
        #expect(try Self.version1Data(url) == Self.version1)
        let container = try open3()
        #expect(try CompanyStore.all("Person", in: container) { $0.value(forKey: "fullName") as? String ?? "-" } == ["-", "Ada", "Bob", "Dee"])
    }
}
