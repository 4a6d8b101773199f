import Foundation
import GRDB
import ObjectGraph
import Testing

/// Lightweight migrations of the `Company` fixture's stores, version by version: on SQLite
/// files and on PostgreSQL schemas (``StoreKind/migrating``); tests that read or write an
/// SQLite file's own tables stay on SQLite.
@Suite("Migrations: lightweight, through the Company versions")
struct MigrationLightweightTests {
    /// How a version-3 person reads: name, email, employer, note.
    private static func person3(_ person: ManagedObject) -> String {
        let name = person.value(forKey: "fullName") as? String ?? "-"
        let email = person.value(forKey: "email") as? String ?? "nil"
        let employer = person.value(forKeyPath: "employer.name") as? String ?? "-"
        return "\(name) <\(email)> at \(employer), note \(person.value(forKey: "note") as? String ?? "nil")"
    }

    @Test("a version-1 store opens with version 3, every value kept: renames, a new parent, a required default", arguments: StoreKind.migrating)
    func version1To3(_ kind: StoreKind) throws {
        let url = try CompanyStore.temporaryURL(kind)
        try CompanyStore.writeVersion1(at: url)
        let bundle = try CompanyStore.bundle()
        let container = try CompanyStore.open("Company 3", of: bundle, at: url)

        // Company became Organization (renamingID), Person.name became fullName; email turned
        // required with the default "" in version 2, so Bob's and Dee's missing emails are "".
        #expect(try CompanyStore.all("Organization", in: container) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech"])
        #expect(
            try CompanyStore.all("Person", in: container, Self.person3) == [
                "- <cy@globex.com> at Globex, note nil", "Ada <ada@acme.com> at Acme, note nil",
                "Bob <> at Acme, note nil", "Dee <> at -, note nil",
            ]
        )
        // Person moved under the abstract Party: fetching Party finds every person.
        #expect(try CompanyStore.all("Party", in: container) { $0.entity.name }.count == 4)
        // The to-many side follows its inverse.
        let employees = try CompanyStore.all("Organization", in: container) { organization in
            let people = organization.value(forKey: "employees") as? Set<ManagedObject> ?? []
            return
                "\(organization.value(forKey: "name") as? String ?? "?"): \(people.map { $0.value(forKey: "fullName") as? String ?? "-" }.sorted())"
        }
        #expect(employees == ["Acme: [\"Ada\", \"Bob\"]", "Globex: [\"-\"]", "Initech: []"])
        #expect(
            container.persistentStoreCoordinator.persistentStores.first?.metadata["modelVersionHash"]
                == bundle.version(named: "Company 3")?.model.versionHash
        )

        // New objects get keys of their own: Z_PRIMARYKEY was carried over.
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let organization = try context.insertObject(entityName: "Organization")
            organization.setValue("Hooli", forKey: "name")
            let person = try context.insertObject(entityName: "Person")
            person.setValue("Eve", forKey: "fullName")
            person.setValue(organization, forKey: "employer")
            let address = try context.insertObject(entityName: "Address")
            address.setValue("Palo Alto", forKey: "city")
            address.setValue(person, forKey: "resident")
            try context.save()
        }
        #expect(try CompanyStore.all("Person", in: container, Self.person3).count == 5)
        #expect(try CompanyStore.all("Organization", in: container) { $0.objectID.uriRepresentation().absoluteString }.count == 4)
    }

    @Test(
        "a version-1 store opens with version 4: to-one becomes to-many, ordered, new defaults, new constraint and index",
        arguments: StoreKind.migrating
    )
    func version1To4(_ kind: StoreKind) throws {
        let url = try CompanyStore.temporaryURL(kind)
        try CompanyStore.writeVersion1(at: url)
        let bundle = try CompanyStore.bundle()
        let statements = Recorded()
        let container = PersistentContainer(name: "Company", bundle: bundle)
        // The statement observer is the SQLite store's; PostgreSQL's indexes are read below.
        let description = CompanyStore.description(url)
        description.setOption({ sql in statements.append(sql) } as SQLStatementObserver, forKey: PersistentStore.sqlStatementObserverOption)
        container.persistentStoreDescriptions = [description]
        try CompanyStore.load(container)

        // employer (to-one) became employers (to-many, renamingID) whose inverse is now ordered.
        let people = try CompanyStore.all("Person", in: container) { person in
            let employers = (person.value(forKey: "employers") as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "name") as? String }
            return
                "\(person.value(forKey: "fullName") as? String ?? "-") \(employers.sorted()) \(person.value(forKey: "yearsOfService") as? Int16 ?? -1)"
        }
        #expect(people == ["- [\"Globex\"] 0", "Ada [\"Acme\"] 0", "Bob [\"Acme\"] 0", "Dee [] 0"])
        let organizations = try CompanyStore.all("Organization", in: container) { organization in
            let employees = (organization.value(forKey: "employees") as? [ManagedObject] ?? []).map { $0.value(forKey: "fullName") as? String ?? "-" }
            return "\(organization.value(forKey: "name") as? String ?? "?"): \(employees)"
        }
        #expect(organizations == ["Acme: [\"Ada\", \"Bob\"]", "Globex: [\"-\"]", "Initech: []"])

        // The new model's uniqueness constraint and fetch index exist, and hold.
        if kind == .sqlite {
            #expect(statements.all.contains { $0.contains("CREATE UNIQUE INDEX IF NOT EXISTS Z_Organization_UNIQUE_name") })
            #expect(statements.all.contains { $0.contains("CREATE INDEX IF NOT EXISTS Z_Person_byEmail ON ZPARTY") })
        }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let copy = try context.insertObject(entityName: "Organization")
            copy.setValue("Acme", forKey: "name")
            let error = try #require(throws: ObjectGraphError.self) { try context.save() }
            #expect(error.code == .constraintConflict)
            context.rollback()
            // New objects, and a new address with its new required default.
            let person = try context.insertObject(entityName: "Person")
            person.setValue("Fay", forKey: "fullName")
            let address = try context.insertObject(entityName: "Address")
            address.setValue(person, forKey: "resident")
            try context.save()
            #expect(address.value(forKey: "country") as? String == "US")
        }
        #expect(try CompanyStore.all("Person", in: container) { _ in "" }.count == 5)
        let sql =
            kind == .sqlite
            ? try CompanyStore.indexes(at: url)
            : try PostgresShell.run("SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema()", in: url)
        #expect(sql.contains { $0.contains("UNIQUE INDEX") && $0.contains("ZORGANIZATION") })
    }

    @Test("a migrated store remembers its versions, and opens again without migrating", arguments: StoreKind.migrating)
    func remembered(_ kind: StoreKind) throws {
        let url = try CompanyStore.temporaryURL(kind)
        try CompanyStore.writeVersion1(at: url)
        let bundle = try CompanyStore.bundle()
        _ = try CompanyStore.open("Company 4", of: bundle, at: url)
        // A migration makes every table anew: on PostgreSQL, their identities (oids) show it.
        let tableIDs = "SELECT relname || ' ' || oid FROM pg_class WHERE relnamespace = current_schema()::regnamespace AND relkind = 'r' ORDER BY 1"
        let tablesBefore = kind == .postgreSQL ? try PostgresShell.run(tableIDs, in: url) : []

        let statements = Recorded()
        let container = try CompanyStore.open("Company 4", of: try CompanyStore.bundle(), at: url) { description in
            description.setOption({ sql in statements.append(sql) } as SQLStatementObserver, forKey: PersistentStore.sqlStatementObserverOption)
        }
        #expect(!statements.all.contains { $0.contains("Z_OLD_") || $0.contains("ALTER TABLE") || $0.contains("UPDATE Z_METADATA") })
        #expect(try CompanyStore.all("Person", in: container) { _ in "" }.count == 4)
        if kind == .postgreSQL {
            // The statement observer is SQLite's: the tables' identities show no migration ran again.
            #expect(try PostgresShell.run(tableIDs, in: url) == tablesBefore)
        }

        let metadata = try CompanyStore.metadata(at: url)
        #expect(metadata?["versionHashHistory"] as? [String] == bundle.versions.map(\.model.versionHash))
        #expect(metadata?["modelVersionHash"] as? String == bundle.currentModel.versionHash)
    }

    @Test("without a bundle, a store migrates straight from the model snapshot in its metadata", arguments: StoreKind.migrating)
    func fromSnapshot(_ kind: StoreKind) throws {
        let url = try CompanyStore.temporaryURL(kind)
        try CompanyStore.writeVersion1(at: url)
        let model = try ManagedObjectModel(contentsOf: XcodeFixtures.url("Company.xcdatamodeld/Company 3.xcdatamodel"))
        let container = PersistentContainer(name: "Company", managedObjectModel: model)
        container.persistentStoreDescriptions = [CompanyStore.description(url)]
        try CompanyStore.load(container)
        #expect(
            try CompanyStore.all("Person", in: container, Self.person3) == [
                "- <cy@globex.com> at Globex, note nil", "Ada <ada@acme.com> at Acme, note nil",
                "Bob <> at Acme, note nil", "Dee <> at -, note nil",
            ]
        )
    }

    @Test("a store written by the code before migrations (a fixture) opens as it is, and migrates")
    func oldFormatFixture() throws {
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
            .appendingPathComponent("Stores/Company-v1-before-migrations.sqlite")
        let url = try CompanyStore.temporaryURL()
        try FileManager.default.copyItem(at: fixture, to: url)
        let plist = try DatabaseQueue(path: url.path).read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA") }
        let metadata = try JSONSerialization.jsonObject(with: try #require(plist)) as? [String: Any]
        #expect(metadata?["versionHashHistory"] == nil)

        let same = try CompanyStore.open("Company", of: try CompanyStore.bundle(), at: url)
        #expect(try CompanyStore.all("Company", in: same) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech"])
        let container = try CompanyStore.open("Company 3", of: try CompanyStore.bundle(), at: url)
        #expect(
            try CompanyStore.all("Person", in: container, Self.person3) == [
                "- <cy@globex.com> at Globex, note nil", "Ada <ada@acme.com> at Acme, note nil",
                "Bob <> at Acme, note nil", "Dee <> at -, note nil",
            ]
        )
    }

    @Test("a store written before migrations existed (no version history) opens, and migrates")
    func oldFormat() throws {
        let url = try CompanyStore.temporaryURL()
        try CompanyStore.writeVersion1(at: url)
        // Metadata exactly as the code before migrations wrote it: no versionHashHistory key.
        try DatabaseQueue(path: url.path).write { db in
            let plist = try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            var object = try #require(try JSONSerialization.jsonObject(with: plist) as? [String: Any])
            #expect(object.removeValue(forKey: "versionHashHistory") != nil)
            let old = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [old])
        }
        let bundle = try CompanyStore.bundle()
        let same = try CompanyStore.open("Company", of: bundle, at: url)
        #expect(try CompanyStore.all("Company", in: same) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech"])
        let migrated = try CompanyStore.open("Company 4", of: try CompanyStore.bundle(), at: url)
        #expect(try CompanyStore.all("Organization", in: migrated) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech"])
    }
}

/// SQL statements recorded from a store's observer (called on the connection's thread).
final class Recorded: @unchecked Sendable {
    // @unchecked Sendable: the array is only touched under the lock.
    private let lock = NSLock()
    private var statements: [String] = []

    func append(_ sql: String) { lock.withLock { statements.append(sql) } }
    var all: [String] { lock.withLock { statements } }
}
