import Foundation
import GRDB
@testable import ObjectGraph
import TestSupport
import Testing

/// glibc's `malloc_usable_size` (declared in `malloc.h`, which the Glibc module leaves out): the
/// bytes a block can hold, its size class less the allocator's 8-byte header.
@_silgen_name("malloc_usable_size")
private func mallocUsableSize(_ pointer: UnsafeMutableRawPointer?) -> Int

/// A managed object's state is five words, so an object takes a 96-byte block; what does not
/// fit — a version past 32 bits, changed slots past the 64th, a place among more than 16
/// million changed objects — lives beside it and behaves as before.
@Suite("Object layout")
struct ObjectLayoutTests {
    /// `Wide`: 70 integer attributes `a0`…`a69`, so slots 64–69 are past the inline mask.
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Wide") {
                for index in 0..<70 {
                    AttributeDescription("a\(index)", .integer64, optional: false, defaultValue: Int64(0))
                }
            }
            EntityDescription("Note") {
                AttributeDescription("text", .string)
            }
        }
    }

    static func container(_ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Layout", managedObjectModel: model())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    static func storeURL(_ name: String) throws -> URL {
        let folder = TestDirectory.make("objectgraph-layout-\(name)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appendingPathComponent("Layout.sqlite")
    }

    @Test("an object's state is five words, and a batched fetch's faults fill a batch at a time")
    func stateIsFiveWords() throws {
        #expect(MemoryLayout<ObjectStorage>.size == 40)
        let container = try Self.container(try Self.storeURL("size"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for index in 0..<300 {
                let note = try context.insertObject(entityName: "Note")
                note.setValue("note \(index)", forKey: "text")
            }
            try context.save()
            context.reset()
            let request = FetchRequest<ManagedObject>(entityName: "Note")
            request.fetchBatchSize = 100
            let notes = try context.fetch(request)
            #expect(notes.count == 300 && notes.allSatisfy(\.isFault))
            #expect((notes[250].value(forKey: "text") as? String)?.hasPrefix("note ") == true)
            #expect(notes[200...].allSatisfy { !$0.isFault } && notes[..<200].allSatisfy(\.isFault))
        }
    }

    @Test("a row version past 32 bits is checked and bumped as any other")
    func largeVersionsSurviveSaves() throws {
        let url = try Self.storeURL("version")
        let container = try Self.container(url)
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let note = try context.insertObject(entityName: "Note")
            note.setValue("first", forKey: "text")
            try context.save()
            return note.objectID
        }
        let large: Int64 = 5_000_000_000
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in try db.execute(sql: "UPDATE ZNOTE SET Z_OPT = ?", arguments: [large]) }
        func storedVersion() throws -> Int64 { try queue.read { db in try Int64.fetchOne(db, sql: "SELECT Z_OPT FROM ZNOTE")! } }

        let reader = container.newBackgroundContext()
        try reader.performAndWait {
            let note = try reader.existingObject(with: id)
            note.setValue("second", forKey: "text")
            try reader.save()
        }
        #expect(try storedVersion() == large + 1)

        // Two contexts read that version; the first saves, the second's save conflicts with
        // it, and the conflict names both versions.
        let first = container.newBackgroundContext()
        let second = container.newBackgroundContext()
        var held: ManagedObject?  // registered objects are held by their users: keep the read one
        try second.performAndWait {
            held = try second.existingObject(with: id)
            _ = held?.value(forKey: "text")
        }
        try first.performAndWait {
            try first.existingObject(with: id).setValue("theirs", forKey: "text")
            try first.save()
        }
        #expect(try storedVersion() == large + 2)
        let failure = try second.performAndWait { () throws -> ObjectGraphError? in
            let note = try second.existingObject(with: id)
            #expect(note === held && note.value(forKey: "text") as? String == "second")
            note.setValue("mine", forKey: "text")
            do {
                try second.save()
                return nil
            } catch let error as ObjectGraphError {
                return error
            }
        }
        let conflict = try #require(failure?.conflicts.first, "\(String(describing: failure))")
        #expect(conflict.oldVersionNumber == large + 1)
        #expect(conflict.newVersionNumber == large + 2)
        #expect(try storedVersion() == large + 2)
    }

    @Test("slots past the 64th are tracked, saved, rolled back and refreshed like the first")
    func changesPastTheSixtyFourthSlot() throws {
        let url = try Self.storeURL("wide")
        let container = try Self.container(url)
        let context = container.newBackgroundContext()
        let id = try context.performAndWait {
            let wide = try context.insertObject(entityName: "Wide")
            wide.setValue(Int64(66), forKey: "a66")
            #expect(wide.changedValues()["a66"] as? Int64 == 66)
            try context.save()
            #expect(!wide.hasChanges)
            return wide.objectID
        }
        let other = container.newBackgroundContext()
        try other.performAndWait {
            let wide = try other.existingObject(with: id)
            #expect(wide.value(forKey: "a66") as? Int64 == 66)
            wide.setValue(Int64(2), forKey: "a2")
            wide.setValue(Int64(67), forKey: "a67")
            wide.setValue(Int64(69), forKey: "a69")
            #expect(Set(wide.changedValues().keys) == ["a2", "a67", "a69"])
            #expect(wide.committedValues(forKeys: ["a67"])["a67"] as? Int64 == 0)
            // Set back to its committed value: no longer a change.
            wide.setValue(Int64(0), forKey: "a69")
            #expect(Set(wide.changedValues().keys) == ["a2", "a67"])
            try other.save()
            #expect(!wide.hasChanges && wide.changedValues().isEmpty)

            wide.setValue(Int64(68), forKey: "a68")
            other.rollback()
            #expect(wide.value(forKey: "a68") as? Int64 == 0 && !wide.hasChanges)

            wide.setValue(Int64(65), forKey: "a65")
            other.refresh(wide, mergeChanges: false)
            #expect(wide.value(forKey: "a65") as? Int64 == 0 && !wide.hasChanges)
        }
        let fresh = try Self.container(url).newBackgroundContext()
        try fresh.performAndWait {
            let wide = try fresh.existingObject(with: id)
            #expect(wide.value(forKey: "a2") as? Int64 == 2)
            #expect(wide.value(forKey: "a66") as? Int64 == 66)
            #expect(wide.value(forKey: "a67") as? Int64 == 67)
            #expect(wide.value(forKey: "a68") as? Int64 == 0)
        }
    }

    @Test("members placed past the inline index are found, moved and removed", arguments: [0, 3, 7])
    func changedObjectsPastTheInlineIndex(farFrom: Int) throws {
        let container = try Self.container(try Self.storeURL("changed-\(farFrom)"))
        let context = container.newBackgroundContext()
        try context.performAndWait {
            var changed = ChangedObjects(farFrom: farFrom)
            let notes = try (0..<12).map { _ in try context.insertObject(entityName: "Note") }
            for note in notes { changed.insert(note) }
            for note in notes { changed.insert(note) }
            #expect(changed.count == 12)
            #expect(notes.allSatisfy { changed.contains($0) })
            for index in [0, 5, 11, 8] { changed.remove(notes[index]) }
            #expect(changed.count == 8)
            let kept = notes.indices.filter { ![0, 5, 11, 8].contains($0) }
            #expect(Set(changed.values.map(ObjectIdentifier.init)) == Set(kept.map { ObjectIdentifier(notes[$0]) }))
            #expect(kept.allSatisfy { changed.contains(notes[$0]) })
            #expect(![0, 5, 11, 8].contains { changed.contains(notes[$0]) })
            changed.insert(notes[5])
            #expect(changed.contains(notes[5]) && changed.count == 9)
            for index in kept { changed.remove(notes[index]) }
            #expect(changed.values.map(ObjectIdentifier.init) == [ObjectIdentifier(notes[5])])
        }
    }
}
