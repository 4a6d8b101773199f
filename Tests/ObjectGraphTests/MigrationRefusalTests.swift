import Foundation
import ObjectGraph
import Testing

/// Migrations that cannot or may not run: refused with a readable error, the store's files
/// byte for byte as they were (a PostgreSQL schema: its version's data all there; see also
/// `PostgreSQLMigrationTests`).
@Suite("Migrations: refusals leave the store as it was")
struct MigrationRefusalTests {
    /// Version 1 of Company changed in every way a lightweight migration cannot follow.
    static func uninferable() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Company") {
                AttributeDescription("name", .integer64)
                RelationshipDescription("employees", to: "Person", inverse: "employer")
            }
            EntityDescription("Person") {
                AttributeDescription("name", .string)
                AttributeDescription("email", .string, optional: false)
                AttributeDescription("age", .integer64, optional: false)
                RelationshipDescription("employer", to: "Company", inverse: "employees", optional: false)
            }
        }
    }

    @Test("a change that cannot be inferred fails listing every change, the -wal and file untouched")
    func uninferableChanges() throws {
        let url = try CompanyStore.temporaryURL()
        try CompanyStore.writeVersion1(at: url)
        // Keep the store open in another container, so its latest writes sit in the -wal.
        let live = try CompanyStore.open("Company", of: try CompanyStore.bundle(), at: url)
        let context = live.newBackgroundContext()
        try context.performAndWait {
            let company = try context.insertObject(entityName: "Company")
            company.setValue("Umbrella", forKey: "name")
            try context.save()
        }
        let before = StoreFileRefusalTests.FileBytes(url)
        #expect(before.wal?.isEmpty == false)

        let container = PersistentContainer(name: "Company", managedObjectModel: Self.uninferable())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.load(container) }
        #expect(error.code == .migrationFailed)
        #expect(error.message.contains(url.path) && error.message.contains("5 changes cannot be migrated"))
        #expect(
            error.differences == [
                "Company.name: the type changed from string to integer64 (Company.name in the store); a type change is not a lightweight migration",
                "Company.employees: a to-many relationship became to-one, but 1 object in the store has more than one Person",
                "Person.email: now required without a default value, but 2 objects in the store have no value",
                "Person.age: a new required attribute without a default value; 4 objects in the store would have none",
                "Person.employer: required, but 1 object in the store has no Company",
            ]
        )
        // The store file and its -wal are untouched. (The -shm is the live connection's shared
        // index: the probe, reading beside it, takes a read mark there as any reader does.)
        let after = StoreFileRefusalTests.FileBytes(url)
        #expect(after.main == before.main)
        #expect(after.wal == before.wal)
        // The right version still reads everything, the -wal's writes included.
        #expect(
            try CompanyStore.all("Company", in: live) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech", "Umbrella"]
        )
    }

    @Test("with automatic migration off, the error names the store's version and the model's", arguments: StoreKind.migrating)
    func migrationOff(_ kind: StoreKind) throws {
        let url = try CompanyStore.temporaryURL(kind)
        try CompanyStore.writeVersion1(at: url)
        let before = StoreFileRefusalTests.FileBytes(url)
        let container = PersistentContainer(name: "Company", bundle: try CompanyStore.bundle())
        let description = CompanyStore.description(url)
        description.shouldMigrateStoreAutomatically = false
        container.persistentStoreDescriptions = [description]
        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.load(container) }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(
            error.message
                == "the store at \(CompanyStore.name(url)) was written with model version 'Company', and the model is version 'Company 4': automatic migration is off (PersistentStoreDescription.shouldMigrateStoreAutomatically); \(CompanyStore.unchanged(url))"
        )
        #expect(error.differences.contains("entity Address is new in the model (not in the store)"))
        try Self.expectUnchanged(url, before: before)
    }

    /// The store at `url` is as it was: an SQLite file byte for byte (`before`); a PostgreSQL
    /// schema still opens with version 1, all its companies there.
    static func expectUnchanged(_ url: URL, before: StoreFileRefusalTests.FileBytes) throws {
        if url.isFileURL {
            #expect(StoreFileRefusalTests.FileBytes(url) == before)
        } else {
            let container = try CompanyStore.open("Company", of: try CompanyStore.bundle(), at: url)
            #expect(try CompanyStore.all("Company", in: container) { $0.value(forKey: "name") as? String ?? "?" } == ["Acme", "Globex", "Initech"])
            #expect(
                try CompanyStore.all("Person", in: container) { $0.value(forKeyPath: "employer.name") as? String ?? "-" } == [
                    "-", "Acme", "Acme", "Globex",
                ]
            )
        }
    }

    @Test("with inference off, a lightweight step is refused, naming it", arguments: StoreKind.migrating)
    func inferenceOff(_ kind: StoreKind) throws {
        let url = try CompanyStore.temporaryURL(kind)
        try CompanyStore.writeVersion1(at: url)
        let before = StoreFileRefusalTests.FileBytes(url)
        let error = try #require(throws: ObjectGraphError.self) {
            try CompanyStore.open("Company 2", of: try CompanyStore.bundle(), at: url) { $0.shouldInferMappingModelAutomatically = false }
        }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(error.message.contains("the step from 'Company' to 'Company 2' needs an inferred mapping, and inferring is off"))
        try Self.expectUnchanged(url, before: before)
    }

    @Test("a store of a newer version is not migrated back; a read-only store is not migrated")
    func newerAndReadOnly() throws {
        let url = try CompanyStore.temporaryURL()
        try CompanyStore.writeVersion1(at: url)
        let readOnly = try #require(throws: ObjectGraphError.self) {
            try CompanyStore.open("Company 2", of: try CompanyStore.bundle(), at: url) { $0.isReadOnly = true }
        }
        #expect(readOnly.code == .persistentStoreIncompatibleVersionHash && readOnly.message.contains("read-only"))

        _ = try CompanyStore.open("Company 3", of: try CompanyStore.bundle(), at: url)
        let before = StoreFileRefusalTests.FileBytes(url)
        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.open("Company 2", of: try CompanyStore.bundle(), at: url) }
        #expect(error.code == .persistentStoreIncompatibleVersionHash)
        #expect(error.message.contains("written with model version 'Company 3', and the model is version 'Company 2'"))
        #expect(StoreFileRefusalTests.FileBytes(url) == before)
    }
}
