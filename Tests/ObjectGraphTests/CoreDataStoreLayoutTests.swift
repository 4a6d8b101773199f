import Foundation
import ObjectGraph
import TestSupport
import Testing

/// The schema ObjectGraph creates is the one Core Data creates for the same model: compared
/// statement by statement (`sqlite_master`, as the reference reader reads it) with the stores
/// Core Data wrote, and, for what the fixtures lack (many-to-many join tables, ordered
/// relationships, entity-number columns, numbered clashes), with the layout Core Data's own
/// stores show (Bear's `Z_5TAGS ( Z_5NOTES INTEGER, Z_13TAGS INTEGER, … )`, Photos'
/// `Z_26ASSETS` with `Z_FOK_34ASSETS`, Contacts' `ZCONTACT INTEGER, Z22_CONTACT INTEGER`).
@Suite("Core Data stores: layout")
struct CoreDataStoreLayoutTests {
    /// Creates an empty store of `model` in a fresh folder and returns its file.
    static func createStore(_ model: ManagedObjectModel, fill: ((ManagedObjectContext) throws -> Void)? = nil) throws -> URL {
        let folder = TestDirectory.make("objectgraph-layout")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let url = folder.appendingPathComponent("Created.sqlite")
        let container = try open(url, model: model)
        if let fill {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                try fill(context)
                try context.save()
            }
        }
        return url
    }

    static func open(_ url: URL, model: ManagedObjectModel) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Layout", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// The `CREATE` statements of the store at `url`, as the reference reader reads them.
    static func statements(_ url: URL) throws -> Set<String> {
        Set(try #require(try CoreDataStoreFixtures.reference(["schema", url.path])["sql"] as? [String]))
    }

    /// What Core Data creates that ObjectGraph does not: the compiled model's cache table.
    static let modelCache = "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)"

    @Test(
        "a store created from a fixture's model has the tables, columns, types and indexes Core Data created, statement for statement",
        arguments: [
            "CoreDataPlus-SampleModel/SampleModel_V1.sqlite", "CoreDataPlus-SampleModel/SampleModel_V2.sqlite",
            "CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite",
        ]
    )
    func createdSchemaIsCoreDatas(store: String) throws {
        let modelPath = try #require(CoreDataVersionHashTests.pairs.first { $0.store == store }?.model)
        let model = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url(modelPath))
        let created = try Self.statements(try Self.createStore(model))
        let coreData = try Self.statements(CoreDataStoreFixtures.url(store)).subtracting([Self.modelCache])
        #expect(created.subtracting(coreData).sorted() == [], "ObjectGraph created, Core Data did not")
        #expect(coreData.subtracting(created).sorted() == [], "Core Data created, ObjectGraph did not")
    }

    @Test(
        "Moody's stores (Core Data of 2015) have the same tables, columns, types and indexes; only uniqueness is spelled as today's Core Data spells it",
        arguments: CoreDataVersionHashTests.pairs.filter { $0.store.hasPrefix("objcio-Moody") }.map(\.store)
    )
    func createdSchemaMatchesOlderCoreData(store: String) throws {
        let modelPath = try #require(CoreDataVersionHashTests.pairs.first { $0.store == store }?.model)
        let model = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url(modelPath))
        // Core Data then wrote a uniqueness constraint into the table, as `, CONSTRAINT A_B
        // UNIQUE (A, B)`; now it creates a `Z_<Entity>_UNIQUE_<a>_<b>` index.
        let created = try Self.statements(try Self.createStore(model)).filter { !$0.contains("_UNIQUE_") }
        let coreData = Set(
            try Self.statements(CoreDataStoreFixtures.url(store)).subtracting([Self.modelCache]).map { statement in
                statement.replacingOccurrences(of: #", CONSTRAINT \w+ UNIQUE \([^)]*\)\)$"#, with: " )", options: .regularExpression)
            }
        )
        #expect(created.subtracting(coreData).sorted() == [], "ObjectGraph created, Core Data did not")
        #expect(coreData.subtracting(created).sorted() == [], "Core Data created, ObjectGraph did not")
    }

    /// SampleModel2's model, built in code as its app builds it (the fixture has no model
    /// file): a to-one into an inheritance tree (`Page.book`, Book having GraphicNovel) gets
    /// Core Data's entity-number column `Z1_BOOK`.
    static func sampleModel2() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Author", parent: "Writer") {
                AttributeDescription("alias", .string, optional: false)
                AttributeDescription("siteURL", .uri)
                RelationshipDescription("books", to: "Book", inverse: "author", toMany: true, deleteRule: .cascade)
            }.unique("alias")
            EntityDescription("Book") {
                AttributeDescription("cover", .binaryData)
                AttributeDescription("pagesCount", .integer64, defaultValue: 0)
                AttributeDescription("price", .decimal)
                AttributeDescription("publishedAt", .date)
                AttributeDescription("title", .string, optional: false)
                AttributeDescription("uniqueID", .uuid, optional: false)
                RelationshipDescription("author", to: "Author", inverse: "books")
                RelationshipDescription("pages", to: "Page", inverse: "book", toMany: true, deleteRule: .cascade)
            }.unique("uniqueID")
            EntityDescription("Feedback") {
                AttributeDescription("authorAlias", .string)
                AttributeDescription("bookID", .uuid)
                AttributeDescription("comment", .string)
                AttributeDescription("rating", .double)
            }
            EntityDescription("GraphicNovel", parent: "Book") { AttributeDescription("isBlackAndWhite", .boolean) }
            EntityDescription("Page") {
                AttributeDescription("content", .binaryData)
                AttributeDescription("isBookmarked", .boolean)
                AttributeDescription("number", .integer32)
                RelationshipDescription("book", to: "Book", inverse: "pages")
            }
            EntityDescription("Writer") { AttributeDescription("age", .integer16) }
        }
    }

    @Test("a to-one into an inheritance tree keeps the destination's entity number in Z<n>_<REL>, as in SampleModel2")
    func entityNumberColumn() throws {
        let created = try Self.statements(try Self.createStore(Self.sampleModel2()))
        let tables = ["ZBOOK", "ZFEEDBACK", "ZPAGE", "ZWRITER"]
        func ofEntityTables(_ statements: Set<String>) -> [String] {
            statements.filter { statement in
                !statement.hasPrefix("CREATE TRIGGER") && tables.contains { statement.contains(" \($0) (") || statement.contains("TABLE \($0) ") }
            }.sorted()
        }
        let coreData = try Self.statements(CoreDataStoreFixtures.url("CoreDataPlus-SampleModel2/SampleModel2_V1.sqlite"))
        // The one deliberate difference: ObjectGraph keeps decimals exact, as text in numeric
        // order, where Core Data's DECIMAL column keeps a double.
        let exactDecimal = Set(coreData.map { $0.replacingOccurrences(of: "ZPRICE DECIMAL", with: "ZPRICE TEXT COLLATE OG_DECIMAL") })
        #expect(ofEntityTables(created) == ofEntityTables(exactDecimal))
        #expect(
            created.contains(
                "CREATE TABLE ZPAGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZISBOOKMARKED INTEGER, ZNUMBER INTEGER, ZBOOK INTEGER, Z1_BOOK INTEGER, ZCONTENT BLOB )"
            )
        )
    }

    /// Many-to-many (one of them ordered), an ordered one-to-many, a to-one into an
    /// inheritance tree, and two sibling subentities' attributes of one name. Core Data numbers
    /// Folder 1, Item 2, Photo 3, Video 4, Note 5, Playlist 6, Song 7, Tag 8.
    static func notesModel() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Folder") {
                AttributeDescription("name", .string)
                RelationshipDescription("notes", to: "Note", inverse: "folder", toMany: true, ordered: true)
            }
            EntityDescription("Item") {
                AttributeDescription("size", .integer64)
                RelationshipDescription("notes", to: "Note", inverse: "attachment", toMany: true)
            }
            EntityDescription("Photo", parent: "Item") { AttributeDescription("caption", .string) }
            EntityDescription("Video", parent: "Item") { AttributeDescription("caption", .integer16) }
            EntityDescription("Note") {
                AttributeDescription("title", .string)
                RelationshipDescription("attachment", to: "Item", inverse: "notes")
                RelationshipDescription("folder", to: "Folder", inverse: "notes")
                RelationshipDescription("tags", to: "Tag", inverse: "notes", toMany: true)
            }
            EntityDescription("Playlist") {
                AttributeDescription("name", .string)
                RelationshipDescription("songs", to: "Song", inverse: "playlists", toMany: true, ordered: true)
            }
            EntityDescription("Song") {
                AttributeDescription("title", .string)
                RelationshipDescription("playlists", to: "Playlist", inverse: "songs", toMany: true)
            }
            EntityDescription("Tag") {
                AttributeDescription("name", .string)
                RelationshipDescription("notes", to: "Note", inverse: "tags", toMany: true)
            }
        }
    }

    @Test("join tables, order columns, entity-number columns and numbered clashes are Core Data's")
    func relationshipLayout() throws {
        let created = try Self.statements(try Self.createStore(Self.notesModel()))
        let expected: Set<String> = [
            "CREATE TABLE ZFOLDER ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZITEM ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZSIZE INTEGER, ZCAPTION1 INTEGER, ZCAPTION VARCHAR )",
            "CREATE INDEX ZITEM_Z_ENT_INDEX ON ZITEM (Z_ENT)",
            "CREATE TABLE ZNOTE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZATTACHMENT INTEGER, Z2_ATTACHMENT INTEGER, ZFOLDER INTEGER, Z_FOK_FOLDER INTEGER, ZTITLE VARCHAR )",
            "CREATE INDEX ZNOTE_ZATTACHMENT_INDEX ON ZNOTE (ZATTACHMENT)",
            "CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER)",
            "CREATE TABLE ZPLAYLIST ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE ZSONG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR )",
            "CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
            "CREATE TABLE Z_5TAGS ( Z_5NOTES INTEGER, Z_8TAGS INTEGER, PRIMARY KEY (Z_5NOTES, Z_8TAGS) )",
            "CREATE INDEX Z_5TAGS_Z_8TAGS_INDEX ON Z_5TAGS (Z_8TAGS, Z_5NOTES)",
            "CREATE TABLE Z_6SONGS ( Z_6PLAYLISTS INTEGER, Z_7SONGS INTEGER, Z_FOK_7SONGS INTEGER, PRIMARY KEY (Z_6PLAYLISTS, Z_7SONGS) )",
            "CREATE INDEX Z_6SONGS_Z_7SONGS_INDEX ON Z_6SONGS (Z_7SONGS, Z_6PLAYLISTS)",
            "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
            "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        ]
        #expect(created.subtracting(expected).sorted() == [], "created, not expected")
        #expect(expected.subtracting(created).sorted() == [], "expected, not created")
    }

    @Test("relationships saved land in Core Data's columns (orders 1024 apart) and read back in order")
    func relationshipsWrittenAndRead() throws {
        let model = Self.notesModel()
        let url = try Self.createStore(model) { context in
            let folder = try context.insertObject(entityName: "Folder")
            let video = try context.insertObject(entityName: "Video")
            video.setValue(Int16(7), forKey: "caption")
            let tags = try (0..<2).map { index in
                let tag = try context.insertObject(entityName: "Tag")
                tag.setValue("tag \(index)", forKey: "name")
                return tag
            }
            var notes: [ManagedObject] = []
            for title in ["c", "a", "b"] {
                let note = try context.insertObject(entityName: "Note")
                note.setValue(title, forKey: "title")
                note.setValue(Set(tags), forKey: "tags")
                note.setValue(video, forKey: "attachment")
                notes.append(note)
            }
            folder.setValue(notes, forKey: "notes")
            let playlist = try context.insertObject(entityName: "Playlist")
            let songs = try ["z", "y", "x"].map { title in
                let song = try context.insertObject(entityName: "Song")
                song.setValue(title, forKey: "title")
                return song
            }
            playlist.setValue(songs, forKey: "songs")
        }
        let query = """
            import sqlite3, sys, json
            db = sqlite3.connect("file:" + sys.argv[1] + "?mode=ro", uri=True)
            out = {
              "notes": db.execute("SELECT ZTITLE, Z_FOK_FOLDER, Z2_ATTACHMENT FROM ZNOTE ORDER BY Z_FOK_FOLDER").fetchall(),
              "tags": db.execute("SELECT COUNT(*), COUNT(DISTINCT Z_5NOTES), COUNT(DISTINCT Z_8TAGS) FROM Z_5TAGS").fetchall(),
              "songs": db.execute("SELECT s.ZTITLE, j.Z_FOK_7SONGS FROM Z_6SONGS j JOIN ZSONG s ON s.Z_PK = j.Z_7SONGS ORDER BY j.Z_FOK_7SONGS").fetchall(),
              "integrity": db.execute("PRAGMA integrity_check").fetchall(),
            }
            print(json.dumps(out))
            """
        let (status, output) = try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", query, url.path])
        #expect(status == 0, "\(output)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [[Any]]])
        #expect(rows["notes"]?.map { "\($0[0]) \($0[1]) \($0[2])" } == ["c 1024 4", "a 2048 4", "b 3072 4"])
        #expect(rows["tags"]?.first?.map { "\($0)" } == ["6", "3", "2"])
        #expect(rows["songs"]?.map { "\($0[0]) \($0[1])" } == ["z 1024", "y 2048", "x 3072"])
        #expect(rows["integrity"]?.first?.first as? String == "ok")

        let container = try Self.open(url, model: model)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let folder = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Folder")).first)
            let notes = try #require(folder.value(forKey: "notes") as? [ManagedObject])
            #expect(notes.compactMap { $0.value(forKey: "title") as? String } == ["c", "a", "b"])
            let note = try #require(notes.first)
            #expect((note.value(forKey: "tags") as? Set<ManagedObject>)?.count == 2)
            #expect((note.value(forKey: "attachment") as? ManagedObject)?.entity.name == "Video")
            let tag = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Tag")).first)
            #expect((tag.value(forKey: "notes") as? Set<ManagedObject>)?.count == 3)
            let playlist = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Playlist")).first)
            let songs = try #require(playlist.value(forKey: "songs") as? [ManagedObject])
            #expect(songs.compactMap { $0.value(forKey: "title") as? String } == ["z", "y", "x"])
            let request = FetchRequest<ManagedObject>(entityName: "Note")
            request.predicate = FetchPredicate(format: "ANY tags.name == 'tag 1' AND folder != nil")
            #expect(try context.count(for: request) == 3)
        }
    }
}
