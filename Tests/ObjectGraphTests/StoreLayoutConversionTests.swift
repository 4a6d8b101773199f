import Foundation
import TestSupport
import Testing

@testable import ObjectGraph

/// A store ObjectGraph wrote in its former layout (`Z_SOURCE`/`Z_DESTINATION` join tables,
/// `Z<REL>_ENT` entity columns) is brought to Core Data's layout the first time it opens
/// read-write, in one transaction; read-only, it is read as it is.
@Suite("Store layout conversion")
struct StoreLayoutConversionTests {
    /// Writes, with Python's `sqlite3`, the file ObjectGraph's former layout held for
    /// ``CoreDataStoreLayoutTests/notesModel()``: a folder of three ordered notes (c, a, b),
    /// each tagged twice and attached to a video, and a playlist of three ordered songs.
    static func forgeFormerStore(model: ManagedObjectModel) throws -> URL {
        try model.validate()
        let schema = StoreSchema(model: model, layout: .objectGraph)
        let snapshot = ModelSnapshot(model)
        let metadata = StoreMetadata(
            formatVersion: SQLiteStore.formatVersion,
            storeUUID: "6F1C0D56-9E3B-4C55-9A51-0E0C4C2B7A10",
            modelVersionHash: snapshot.versionHash,
            model: snapshot,
            versionHashHistory: [snapshot.versionHash]
        )
        let plist = String(decoding: try JSONEncoder.sortedKeys.encode(metadata), as: UTF8.self)
        let folder = TestDirectory.make("objectgraph-former")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Former.sqlite")
        let keys = model.entities.map { [$0.entityCode, $0.superentity?.entityCode ?? 0] as [Int] }
        let names = model.entities.map(\.name)
        let input = try JSONSerialization.data(
            withJSONObject: ["statements": schema.creationSQL(model: model), "plist": plist, "keys": keys, "names": names]
        )
        let script = """
            import json, sqlite3, sys
            spec = json.loads(sys.stdin.read())
            db = sqlite3.connect(sys.argv[1])
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID TEXT, Z_PLIST BLOB)")
            db.execute("INSERT INTO Z_METADATA VALUES (1, '6F1C0D56-9E3B-4C55-9A51-0E0C4C2B7A10', ?)", (spec["plist"].encode(),))
            db.execute("CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME TEXT, Z_SUPER INTEGER, Z_MAX INTEGER)")
            for (ent, parent), name in zip(spec["keys"], spec["names"]):
                db.execute("INSERT INTO Z_PRIMARYKEY VALUES (?, ?, ?, 8)", (ent, name, parent))
            for statement in spec["statements"]:
                db.execute(statement)
            db.execute("INSERT INTO ZFOLDER VALUES (1, 1, 1, 'Inbox')")
            db.execute("INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZCAPTION1) VALUES (1, 4, 1, 7)")
            for pk, title, order in [(1, 'c', 0), (2, 'a', 1), (3, 'b', 2)]:
                db.execute("INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZATTACHMENT, ZATTACHMENT_ENT, "
                           "ZFOLDER, Z_FOK_FOLDER) VALUES (?, 5, 1, ?, 1, 4, 1, ?)", (pk, title, order))
                for tag in (1, 2):
                    db.execute("INSERT INTO Z_5TAGS (Z_SOURCE, Z_DESTINATION) VALUES (?, ?)", (pk, tag))
            for pk in (1, 2):
                db.execute("INSERT INTO ZTAG VALUES (?, 8, 1, ?)", (pk, "tag %d" % pk))
            db.execute("INSERT INTO ZPLAYLIST VALUES (1, 6, 1, 'Road')")
            for pk, title, order in [(1, 'z', 0), (2, 'y', 1), (3, 'x', 2)]:
                db.execute("INSERT INTO ZSONG VALUES (?, 7, 1, ?)", (pk, title))
                db.execute("INSERT INTO Z_6SONGS (Z_SOURCE, Z_DESTINATION, Z_FOK_SOURCE) VALUES (1, ?, ?)", (pk, order))
            db.commit()
            db.close()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, url.path]
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return url
    }

    /// A container with the store at `url` loaded, read-only or read-write.
    static func container(_ url: URL, model: ManagedObjectModel, readOnly: Bool) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Former", managedObjectModel: model)
        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = readOnly
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// The notes, tags and songs of the store at `url`, as a context reads them.
    static func contents(_ url: URL, model: ManagedObjectModel, readOnly: Bool) throws -> [String] {
        let context = try container(url, model: model, readOnly: readOnly).newBackgroundContext()
        return try context.performAndWait {
            let folder = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Folder")).first)
            let notes = try #require(folder.value(forKey: "notes") as? [ManagedObject])
            var lines = notes.map { note in
                let tags = (note.value(forKey: "tags") as? Set<ManagedObject> ?? []).compactMap { $0.value(forKey: "name") as? String }.sorted()
                let attachment = note.value(forKey: "attachment") as? ManagedObject
                let caption = attachment?.value(forKey: "caption") ?? "-"
                return "\(note.value(forKey: "title") as? String ?? "?") \(tags) \(attachment?.entity.name ?? "-") \(caption)"
            }
            let playlist = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Playlist")).first)
            let songs = try #require(playlist.value(forKey: "songs") as? [ManagedObject])
            lines.append(songs.compactMap { $0.value(forKey: "title") as? String }.joined(separator: " "))
            return lines
        }
    }

    static let expected = [
        #"c ["tag 1", "tag 2"] Video 7"#, #"a ["tag 1", "tag 2"] Video 7"#, #"b ["tag 1", "tag 2"] Video 7"#, "z y x",
    ]

    @Test("a store an earlier build wrote in the former layout (a kept fixture) is converted to Core Data's as it opens read-write")
    func earlierBuildsStoreConverted() throws {
        // Written by ObjectGraph at commit 9a09303 (see Fixtures/Stores/README.md): `TEXT`
        // columns, `NOT NULL` row keys, the former metadata; not made by today's code.
        let fixture = try #require(Bundle.module.url(forResource: "Fixtures", withExtension: nil))
            .appendingPathComponent("Stores/Company-v1-before-migrations.sqlite")
        let url = try CompanyStore.temporaryURL()
        try FileManager.default.copyItem(at: fixture, to: url)
        let before = try Set(#require(try CoreDataStoreFixtures.reference(["schema", url.path])["sql"] as? [String]))
        #expect(before.contains("CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER NOT NULL, Z_OPT INTEGER NOT NULL, ZEMAIL TEXT, ZNAME TEXT, ZEMPLOYER INTEGER)"))

        let bundle = try CompanyStore.bundle()
        let container = try CompanyStore.open("Company", of: bundle, at: url)
        let people = try CompanyStore.all("Person", in: container) { person in
            let employer = (person.value(forKey: "employer") as? ManagedObject)?.value(forKey: "name") as? String
            return "\(person.value(forKey: "name") as? String ?? "-") <\(person.value(forKey: "email") as? String ?? "")> at \(employer ?? "-")"
        }
        #expect(people == ["- <cy@globex.com> at Globex", "Ada <ada@acme.com> at Acme", "Bob <> at Acme", "Dee <> at -"])

        // The entity tables are now those a new store of the same model has.
        let converted = try CoreDataStoreLayoutTests.statements(url)
        let model = try #require(try CompanyStore.bundle().version(named: "Company")?.model)
        let fresh = try CoreDataStoreLayoutTests.statements(try CoreDataStoreLayoutTests.createStore(model))
        let entityTables = { (statements: Set<String>) in statements.filter { !$0.contains("Z_METADATA") && !$0.contains("Z_PRIMARYKEY") } }
        #expect(entityTables(converted).subtracting(entityTables(fresh)).sorted() == [])
        #expect(entityTables(fresh).subtracting(entityTables(converted)).sorted() == [])
    }

    @Test("read-only, a store in the former layout is read as it is, and the file is not changed")
    func readOnlyKeepsLayout() throws {
        let model = CoreDataStoreLayoutTests.notesModel()
        let url = try Self.forgeFormerStore(model: model)
        let before = try Set(#require(try CoreDataStoreFixtures.reference(["schema", url.path])["sql"] as? [String]))
        #expect(try Self.contents(url, model: model, readOnly: true) == Self.expected)
        let after = try Set(#require(try CoreDataStoreFixtures.reference(["schema", url.path])["sql"] as? [String]))
        #expect(after == before)
        #expect(before.contains { $0.contains("Z_SOURCE") })
    }

    @Test("read-write, a store in the former layout is converted to Core Data's, with every row, member and order")
    func convertedToCoreDataLayout() throws {
        let model = CoreDataStoreLayoutTests.notesModel()
        let url = try Self.forgeFormerStore(model: model)
        #expect(try Self.contents(url, model: model, readOnly: false) == Self.expected)
        let schema = try CoreDataStoreFixtures.reference(["schema", url.path])
        let converted = try Set(#require(schema["sql"] as? [String]))
        let fresh = try CoreDataStoreLayoutTests.statements(try CoreDataStoreLayoutTests.createStore(CoreDataStoreLayoutTests.notesModel()))
        // Tables and indexes as a new store has them (Z_METADATA and Z_PRIMARYKEY keep their
        // former column types).
        let entityTables = { (statements: Set<String>) in statements.filter { !$0.contains("Z_METADATA") && !$0.contains("Z_PRIMARYKEY") } }
        #expect(entityTables(converted).subtracting(entityTables(fresh)).sorted() == [])
        #expect(entityTables(fresh).subtracting(entityTables(converted)).sorted() == [])
        #expect(schema["integrity"] as? [String] == ["ok"])
        // Opened again: no second conversion, the same objects.
        #expect(try Self.contents(url, model: model, readOnly: true) == Self.expected)
    }
}
