import Foundation
import ObjectGraph
import TestSupport
import Testing

@Suite("Store files")
struct StoreFileTests {
    private func temporaryFile(_ name: String = "Store.sqlite") throws -> URL {
        let directory = TestDirectory.make("objectgraph-store")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent(name)
    }

    @Test("a store reopens with its data and the same object IDs")
    func reopen() throws {
        let url = try temporaryFile()
        let id: ManagedObjectID
        do {
            let stack = try TestStack(file: url)
            let context = stack.container.newBackgroundContext()
            id = try context.performAndWait {
                let photo = Photo(context: context)
                photo.unique = "1"
                photo.title = "Zoë at the Oval"
                photo.uploaded = Date(timeIntervalSinceReferenceDate: 12345.678)
                let before = photo.objectID
                try context.save()
                #expect(photo.objectID == before)
                return photo.objectID
            }
        }
        let stack = try TestStack(file: url)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = try #require(try context.existingObject(with: id) as? Photo)
            #expect(photo.title == "Zoë at the Oval")
            #expect(photo.uploaded == Date(timeIntervalSinceReferenceDate: 12345.678))
            #expect(ManagedObjectID(uriRepresentation: id.uriRepresentation()) == id)
            let next = Photo(context: context)
            #expect(next.objectID.primaryKey != id.primaryKey)
        }
    }

    @Test("a file that is not SQLite is refused without being touched")
    func notAStore() throws {
        let url = try temporaryFile()
        let garbage = Data("these are my holiday notes, not a database".utf8)
        try garbage.write(to: url)
        let error = try #require(throws: ObjectGraphError.self) { try TestStack(file: url) }
        #expect(error.code == .persistentStoreInvalidType)
        #expect(error.message.contains(url.path))
        #expect(try Data(contentsOf: url) == garbage)
    }

    @Test("a damaged SQLite file, or an SQLite file of another app, is refused")
    func damaged() throws {
        let url = try temporaryFile()
        var bytes = Data("SQLite format 3\0".utf8)
        bytes.append(Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }))
        try bytes.write(to: url)
        let error = try #require(throws: ObjectGraphError.self) { try TestStack(file: url) }
        #expect(error.code == .persistentStoreInvalidType || error.code == .persistentStoreOperation)
        #expect(error.description.contains(url.path))
        #expect(try Data(contentsOf: url) == bytes)

        // A valid SQLite database that is not an ObjectGraph store: refused, tables named.
        let foreign = try temporaryFile("Foreign.sqlite")
        let model = ManagedObjectModel { EntityDescription("Note") { AttributeDescription("text", .string) } }
        _ = try TestStack(model: model, file: foreign)
        let other = try #require(throws: ObjectGraphError.self) { try TestStack(file: foreign) }
        #expect(other.code == .persistentStoreIncompatibleVersionHash)
        #expect(other.differences.contains("entity Note is in the store but not in the model"))
    }

    @Test("a store written by another model is refused, listing the differences, file unchanged")
    func modelMismatch() throws {
        let url = try temporaryFile()
        do {
            let stack = try TestStack(file: url)
            let context = stack.container.newBackgroundContext()
            try context.performAndWait {
                let tag = Tag(context: context)
                tag.name = "quad"
                try context.save()
            }
        }
        let changed = ManagedObjectModel {
            EntityDescription("Tag") {
                AttributeDescription("name", .integer64)
                AttributeDescription("colour", .string)
            }
        }
        // Migration is on by default (PersistentStoreDescription), and a type change cannot be
        // inferred: refused, listing what cannot be migrated.
        let error = try #require(throws: ObjectGraphError.self) { try TestStack(model: changed, file: url) }
        #expect(error.code == .migrationFailed)
        #expect(error.differences.contains { $0.hasPrefix("Tag.name: the type changed from string to integer64") })
        #expect(error.message.contains(url.path))
        // With migration off (a coordinator's default, as in Core Data), the refusal lists
        // every difference between the models.
        let coordinator = PersistentStoreCoordinator(managedObjectModel: changed)
        let refusal = try #require(throws: ObjectGraphError.self) { try coordinator.addPersistentStore(type: .sqlite, at: url) }
        #expect(refusal.code == .persistentStoreIncompatibleVersionHash)
        #expect(refusal.differences.contains("Tag.name: attribute changed from type string to type integer64"))
        #expect(refusal.differences.contains("Tag.colour: attribute added (type string)"))
        #expect(refusal.differences.contains { $0.contains("entity Photo is in the store but not in the model") })
        // The store is intact: the right model still opens it and finds its data.
        let reopened = try TestStack(file: url)
        let context = reopened.container.newBackgroundContext()
        let names = try context.performAndWait { try context.fetch(Tag.fetchRequest()).compactMap(\.name) }
        #expect(names == ["quad"])
    }

    @Test("the version hash ignores what does not affect storage")
    func versionHash() throws {
        let base = SPoTModel.make()
        let same = SPoTModel.make()
        try base.validate()
        try same.validate()
        #expect(base.versionHash == same.versionHash)
        let withRules = ManagedObjectModel {
            EntityDescription("Spot") { AttributeDescription("name", .string, optional: false).length(1...9) }
        }
        let plain = ManagedObjectModel {
            EntityDescription("Spot") { AttributeDescription("name", .string) }
        }
        let retyped = ManagedObjectModel {
            EntityDescription("Spot") { AttributeDescription("name", .binaryData) }
        }
        for model in [withRules, plain, retyped] { try model.validate() }
        #expect(withRules.versionHash == plain.versionHash)
        #expect(retyped.versionHash != plain.versionHash)
    }
}
