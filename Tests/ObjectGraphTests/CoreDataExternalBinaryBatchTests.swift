import Foundation
import ObjectGraph
import Testing

/// Batch updates and batch deletes on an entity whose binary attribute allows external
/// storage: the files of the values they replace or delete leave `_EXTERNAL_DATA` once they
/// commit, a large value a batch update sets gets a file per row, and a batch that rolls back
/// leaves the files as they were. Real files on disk, checked by name and contents.
@Suite("Core Data's external binary storage under batch requests")
struct CoreDataExternalBinaryBatchTests {
    typealias Photos = CoreDataExternalBinaryTests

    /// A store with one photo per name, each with its own large image (one file each).
    static func store(_ names: [String]) throws -> (URL, PersistentContainer, [String: Data]) {
        let url = try Photos.newStore()
        let container = try Photos.open(url)
        let context = container.newBackgroundContext()
        var images: [String: Data] = [:]
        for (index, name) in names.enumerated() { images[name] = Photos.bytes(110_000 + index * 1_000, seed: UInt8(10 + index)) }
        try context.performAndWait {
            for name in names {
                let photo = try context.insertObject(entityName: "Photo")
                photo.setValue(name, forKey: "name")
                photo.setValue(images[name], forKey: "image")
            }
            try context.save()
        }
        #expect(Photos.files(url).count == names.count)
        return (url, container, images)
    }

    /// The image each photo's file holds, by the photo's name, as Python's `sqlite3` and the
    /// file system see them: "inline:<hex>" for a value in the row, the file's bytes else.
    static func stored(_ url: URL) throws -> [String: String] {
        let output = try Photos.python(
            """
            import json, os, sqlite3, sys
            store = sys.argv[1]
            folder = os.path.join(os.path.dirname(store), '.Photos_SUPPORT', '_EXTERNAL_DATA')
            out = {}
            for name, image in sqlite3.connect(store).execute('SELECT ZNAME, ZIMAGE FROM ZPHOTO'):
                if image is None: out[name] = 'null'
                elif image[0] == 1: out[name] = 'inline:' + image[1:].hex()
                else: out[name] = 'file:' + open(os.path.join(folder, image[1:-1].decode()), 'rb').read().hex()
            print(json.dumps(out))
            """,
            [url.path]
        )
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: String])
    }

    static func execute(_ request: PersistentStoreRequest, in container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        _ = try context.performAndWait { try context.execute(request) }
    }

    static func update(_ predicate: String, _ values: [AnyHashable: Any], in container: PersistentContainer) throws {
        let request = BatchUpdateRequest(entityName: "Photo")
        request.predicate = FetchPredicate(format: predicate)
        request.propertiesToUpdate = values
        try execute(request, in: container)
    }

    @Test("a batch update removes the files of the values it replaces; a large value it sets gets a file per row")
    func batchUpdateReplacesFiles() throws {
        let (url, container, images) = try Self.store(["a", "b", "c"])
        let before = Photos.files(url)

        // A small value replaces two large ones: kept in the rows, their two files gone.
        let small = Data("small".utf8)
        try Self.update("name IN {'a', 'b'}", ["image": small], in: container)
        #expect(Photos.files(url).count == 1)
        #expect(Set(Photos.files(url)).isSubset(of: before))
        #expect(try Self.stored(url) == ["a": "inline:" + small.hex, "b": "inline:" + small.hex, "c": "file:" + images["c"]!.hex])

        // A large value on two rows: a file each (each row owns its file), c's old file gone.
        let large = Photos.bytes(180_000, seed: 99)
        try Self.update("name IN {'b', 'c'}", ["image": large], in: container)
        let files = Photos.files(url)
        #expect(files.count == 2 && Set(files).isDisjoint(with: before))
        #expect(try Self.stored(url) == ["a": "inline:" + small.hex, "b": "file:" + large.hex, "c": "file:" + large.hex])
        let read: [String: Data] = try {
            let context = try Photos.open(url).newBackgroundContext()
            return try context.performAndWait {
                Dictionary(
                    uniqueKeysWithValues: try context.fetch(FetchRequest<ManagedObject>(entityName: "Photo")).map {
                        ($0.value(forKey: "name") as! String, $0.value(forKey: "image") as! Data)
                    }
                )
            }
        }()
        #expect(read == ["a": small, "b": large, "c": large])

        // No value: no file left.
        try Self.update("name != nil", ["image": NSNull()], in: container)
        #expect(Photos.files(url).isEmpty)
        #expect(try Self.stored(url) == ["a": "null", "b": "null", "c": "null"])
    }

    @Test("a batch update that rolls back leaves the old files and none of the new ones")
    func failedBatchUpdateKeepsFiles() throws {
        let (url, container, images) = try Self.store(["a", "b"])
        let before = Photos.files(url)
        // Both rows named "same": the unique index on name refuses it, after the new files
        // were written.
        #expect(throws: ObjectGraphError.self) {
            try Self.update("name != nil", ["name": "same", "image": Photos.bytes(170_000, seed: 42)], in: container)
        }
        #expect(Photos.files(url) == before)
        #expect(try Self.stored(url) == ["a": "file:" + images["a"]!.hex, "b": "file:" + images["b"]!.hex])
    }

    @Test("a batch delete removes the files of the rows it deletes, by predicate and by IDs")
    func batchDeleteRemovesFiles() throws {
        let (url, container, images) = try Self.store(["a", "b", "c"])
        let fetch = FetchRequest<FetchRequestResult>(entityName: "Photo")
        fetch.predicate = FetchPredicate(format: "name == 'a'")
        try Self.execute(BatchDeleteRequest(fetchRequest: fetch), in: container)
        #expect(Photos.files(url).count == 2)
        #expect(try Self.stored(url) == ["b": "file:" + images["b"]!.hex, "c": "file:" + images["c"]!.hex])

        let context = container.newBackgroundContext()
        let b: ManagedObjectID = try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            request.predicate = FetchPredicate(format: "name == 'b'")
            return try #require(try context.fetch(request).first).objectID
        }
        try Self.execute(BatchDeleteRequest(objectIDs: [b]), in: container)
        #expect(Photos.files(url).count == 1)
        #expect(try Self.stored(url) == ["c": "file:" + images["c"]!.hex])
    }

    @Test("a batch insert that upserts an object removes the file of the value it replaces")
    func batchInsertUpsertRemovesFile() throws {
        let (url, container, images) = try Self.store(["a", "b"])
        let small = Data("upserted".utf8)
        // Photo is unique by name: inserting "a" again updates the stored "a".
        try Self.execute(BatchInsertRequest(entityName: "Photo", objects: [["name": "a", "image": small]]), in: container)
        #expect(Photos.files(url).count == 1)
        #expect(try Self.stored(url) == ["a": "inline:" + small.hex, "b": "file:" + images["b"]!.hex])
    }
}
