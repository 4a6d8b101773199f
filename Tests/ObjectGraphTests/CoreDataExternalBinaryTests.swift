import Foundation
import ObjectGraph
import TestSupport
import Testing

/// Binary attributes that allow external storage, in Core Data's format: a column holds
/// `0x01` + the bytes, or `0x02` + a file name + NUL for a file in
/// `.<StoreName>_SUPPORT/_EXTERNAL_DATA/` beside the store.
@Suite("Core Data's external binary storage")
struct CoreDataExternalBinaryTests {
    static func model() -> ManagedObjectModel {
        let image = AttributeDescription("image", .binaryData)
        image.allowsExternalBinaryDataStorage = true
        return ManagedObjectModel {
            EntityDescription("Photo") {
                AttributeDescription("name", .string)
                image
                AttributeDescription("thumbnail", .binaryData)
            }
            .unique("name")
        }
    }

    /// A container on the store at `url` (created when missing).
    static func open(_ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Photos", managedObjectModel: model())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// A new folder and the store URL `Photos.sqlite` in it.
    static func newStore() throws -> URL {
        let directory = TestDirectory.make("objectgraph-external")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appendingPathComponent("Photos.sqlite")
    }

    /// `.Photos_SUPPORT/_EXTERNAL_DATA` beside `store`.
    static func externalData(_ store: URL) -> URL {
        store.deletingLastPathComponent().appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
    }

    /// The files in `store`'s external data folder.
    static func files(_ store: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: externalData(store).path)) ?? []).sorted()
    }

    /// Runs a Python script with `sqlite3` on `store`; its output.
    @discardableResult
    static func python(_ script: String, _ arguments: [String]) throws -> String {
        let (status, output) = try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script] + arguments)
        try #require(status == 0, "python3 exited \(status): \(output)")
        return output
    }

    /// Bytes that do not repeat: `count` of them from `seed`.
    static func bytes(_ count: Int, seed: UInt8) -> Data {
        var state = UInt32(seed) &+ 1
        return Data(
            (0..<count).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(truncatingIfNeeded: state >> 24)
            }
        )
    }

    /// The column `ZIMAGE` of every row, as Python's `sqlite3` reads it: pk → hex.
    static func imageColumns(_ store: URL) throws -> [Int: String] {
        let output = try python(
            """
            import sqlite3, sys, json
            db = sqlite3.connect(sys.argv[1])
            print(json.dumps({str(pk): (None if image is None else image.hex()) for pk, image in db.execute('SELECT Z_PK, ZIMAGE FROM ZPHOTO')}))
            """,
            [store.path]
        )
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        return Dictionary(uniqueKeysWithValues: json.compactMap { key, value in (value as? String).map { (Int(key)!, $0) } })
    }

    @Test("rows Python's sqlite3 wrote in Core Data's format read as their values: inline and in a file")
    func readsBothForms() throws {
        let store = try Self.newStore()
        // ObjectGraph creates the empty store (Core Data's tables and metadata)…
        try Self.open(store).viewContext.performAndWait {}
        // …Python writes the rows and the file as Core Data does.
        let large = Self.bytes(300_000, seed: 7)
        let largePath = store.deletingLastPathComponent().appendingPathComponent("large.bin")
        try large.write(to: largePath)
        try Self.python(
            """
            import os, sqlite3, sys
            store, large = sys.argv[1], open(sys.argv[2], 'rb').read()
            folder = os.path.join(os.path.dirname(store), '.Photos_SUPPORT', '_EXTERNAL_DATA')
            os.makedirs(folder)
            name = '8E5D6F1A-3C2B-4D5E-9F60-718293A4B5C6'
            open(os.path.join(folder, name), 'wb').write(large)
            db = sqlite3.connect(store)
            rows = [(1, 'small', b'\\x01' + b'tiny bytes', b'thumb'), (2, 'large', b'\\x02' + name.encode() + b'\\x00', None),
                    (3, 'empty', b'\\x01', None), (4, 'none', None, None)]
            for pk, title, image, thumbnail in rows:
                db.execute('INSERT INTO ZPHOTO (Z_PK, Z_ENT, Z_OPT, ZNAME, ZIMAGE, ZTHUMBNAIL) VALUES (?, 1, 1, ?, ?, ?)', (pk, title, image, thumbnail))
            db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 4 WHERE Z_NAME = 'Photo'")
            db.commit()
            """,
            [store.path, largePath.path]
        )
        let container = try Self.open(store)
        let context = container.newBackgroundContext()
        let values: [String: Data?] = try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            return Dictionary(
                uniqueKeysWithValues: try context.fetch(request).map { ($0.value(forKey: "name") as! String, $0.value(forKey: "image") as? Data) }
            )
        }
        #expect(values["small"] == Data("tiny bytes".utf8))
        #expect(values["large"] == large)
        #expect(values["empty"] == Data())
        #expect(values["none"] == .some(nil))
        // A binary attribute without external storage is a plain blob.
        let thumbnail: Data? = try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            request.predicate = FetchPredicate(format: "name == 'small'")
            return try context.fetch(request).first?.value(forKey: "thumbnail") as? Data
        }
        #expect(thumbnail == Data("thumb".utf8))
    }

    @Test("saved values are written in Core Data's format, large ones in files, and read back the same")
    func writesCoreDataFormat() throws {
        let store = try Self.newStore()
        let large = Self.bytes(250_000, seed: 3)
        let small = Self.bytes(1_000, seed: 4)
        let container = try Self.open(store)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (name, image) in [("large", large), ("small", small)] {
                let photo = try context.insertObject(entityName: "Photo")
                photo.setValue(name, forKey: "name")
                photo.setValue(image, forKey: "image")
            }
            try context.save()
        }
        let columns = try Self.imageColumns(store)
        let files = Self.files(store)
        try #require(files.count == 1)
        let name = files[0]
        #expect(UUID(uuidString: name) != nil, "the file is named by a UUID: \(name)")
        #expect(Set(columns.values) == ["01" + small.hex, "02" + Data(name.utf8).hex + "00"])
        #expect(try Data(contentsOf: Self.externalData(store).appendingPathComponent(name)) == large)

        // Another container reads the same values.
        let again = try Self.open(store).newBackgroundContext()
        let read: [String: Data] = try again.performAndWait {
            Dictionary(
                uniqueKeysWithValues: try again.fetch(FetchRequest<ManagedObject>(entityName: "Photo")).map {
                    ($0.value(forKey: "name") as! String, $0.value(forKey: "image") as! Data)
                }
            )
        }
        #expect(read == ["large": large, "small": small])
        // So do dictionary fetches.
        let dictionaries: [[String: Any]] = try again.performAndWait {
            let request = FetchRequest<[String: Any]>(entityName: "Photo")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name", "image"]
            return try again.fetch(request)
        }
        #expect(dictionaries.contains { $0["image"] as? Data == large })
    }

    @Test("a replaced or deleted value's file is removed once the save commits")
    func filesFollowTheirValues() throws {
        let store = try Self.newStore()
        let container = try Self.open(store)
        let context = container.newBackgroundContext()
        let first = Self.bytes(200_000, seed: 1)
        let second = Self.bytes(220_000, seed: 2)
        let id: ManagedObjectID = try context.performAndWait {
            let photo = try context.insertObject(entityName: "Photo")
            photo.setValue(first, forKey: "image")
            try context.save()
            return photo.objectID
        }
        let original = Self.files(store)
        #expect(original.count == 1)

        // Replaced by another large value: a new file, the old one gone.
        try context.performAndWait {
            try context.existingObject(with: id).setValue(second, forKey: "image")
            try context.save()
        }
        let replaced = Self.files(store)
        #expect(replaced.count == 1 && replaced != original)
        #expect(try Data(contentsOf: Self.externalData(store).appendingPathComponent(replaced[0])) == second)

        // Replaced by a small value: kept in the row, no file left.
        try context.performAndWait {
            try context.existingObject(with: id).setValue(Data([1, 2, 3]), forKey: "image")
            try context.save()
        }
        #expect(Self.files(store).isEmpty)
        #expect(try Self.imageColumns(store).values.first == "01010203")

        // Deleted: its file goes with it.
        try context.performAndWait {
            try context.existingObject(with: id).setValue(first, forKey: "image")
            try context.save()
        }
        #expect(Self.files(store).count == 1)
        try context.performAndWait {
            context.delete(try context.existingObject(with: id))
            try context.save()
        }
        #expect(Self.files(store).isEmpty)
        #expect(try Self.imageColumns(store).isEmpty)
    }

    @Test("batch inserts keep binary values in the row, in Core Data's inline form, and read back the same")
    func batchInsertsKeepValuesInline() throws {
        let store = try Self.newStore()
        let context = try Self.open(store).newBackgroundContext()
        let large = Self.bytes(150_000, seed: 9)
        try context.performAndWait {
            let request = BatchInsertRequest(entityName: "Photo", objects: [["name": "batch", "image": large]])
            _ = try context.execute(request)
        }
        #expect(Self.files(store).isEmpty, "batch requests write no files")
        #expect(try Self.imageColumns(store).values.first == "01" + large.hex)
        let read: Data? = try context.performAndWait {
            try context.fetch(FetchRequest<ManagedObject>(entityName: "Photo")).first?.value(forKey: "image") as? Data
        }
        #expect(read == large)
    }

    @Test("a save that fails in its transaction leaves none of its files behind")
    func failedSaveRemovesItsFiles() throws {
        let store = try Self.newStore()
        let container = try Self.open(store)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let photo = try context.insertObject(entityName: "Photo")
            photo.setValue("one", forKey: "name")
            photo.setValue(Self.bytes(120_000, seed: 5), forKey: "image")
            try context.save()
        }
        let saved = Self.files(store)
        #expect(saved.count == 1)
        // Another context saves a second "one": the unique index refuses it, the transaction
        // rolls back, and the file it wrote goes.
        let other = container.newBackgroundContext()
        #expect(throws: (any Error).self) {
            try other.performAndWait {
                let photo = try other.insertObject(entityName: "Photo")
                photo.setValue("one", forKey: "name")
                photo.setValue(Self.bytes(130_000, seed: 6), forKey: "image")
                try other.save()
            }
        }
        #expect(Self.files(store) == saved)
    }

    @Test("a missing external data file is an error naming the file, the object and the attribute, never a nil value")
    func missingFileIsAnError() throws {
        let store = try Self.newStore()
        let id: ManagedObjectID = try {
            let context = try Self.open(store).newBackgroundContext()
            return try context.performAndWait {
                let photo = try context.insertObject(entityName: "Photo")
                photo.setValue("lost", forKey: "name")
                photo.setValue(Self.bytes(150_000, seed: 8), forKey: "image")
                try context.save()
                return photo.objectID
            }
        }()
        let name = try #require(Self.files(store).first)
        let file = Self.externalData(store).appendingPathComponent(name)
        try FileManager.default.removeItem(at: file)

        func namesEverything(_ error: any Error) -> Bool {
            let text = "\(error)"
            return (error as? ObjectGraphError)?.code == .persistentStoreOperation && text.contains(file.path)
                && text.contains(id.uriRepresentation().absoluteString) && text.contains(".image") && text.contains("missing")
        }
        let context = try Self.open(store).newBackgroundContext()
        #expect {
            try context.performAndWait { try context.fetch(FetchRequest<ManagedObject>(entityName: "Photo")) }
        } throws: { namesEverything($0) }
        #expect {
            try context.performAndWait { try context.existingObject(with: id) }
        } throws: { namesEverything($0) }
        #expect {
            try context.performAndWait {
                let request = FetchRequest<[String: Any]>(entityName: "Photo")
                request.resultType = .dictionaryResultType
                request.propertiesToFetch = ["image"]
                return try context.fetch(request)
            }
        } throws: { namesEverything($0) }
        // A fault fired by a getter cannot throw: its value stays unread, and the next count
        // (or fetch, or save) throws the error.
        let fresh = try Self.open(store).newBackgroundContext()
        #expect {
            try fresh.performAndWait {
                let photo = fresh.object(with: id)
                #expect(photo.value(forKey: "image") == nil)
                return try fresh.count(for: FetchRequest<ManagedObject>(entityName: "Photo"))
            }
        } throws: { namesEverything($0) }
        // Attributes that do not touch the file still read.
        let names: [[String: Any]] = try context.performAndWait {
            let request = FetchRequest<[String: Any]>(entityName: "Photo")
            request.resultType = .dictionaryResultType
            request.propertiesToFetch = ["name"]
            return try context.fetch(request)
        }
        #expect(names.first?["name"] as? String == "lost")
    }
}
