import Foundation
import ObjectGraph
import ObjectGraphPostgres
import Synchronization
import Testing

/// Large saves on PostgreSQL, whose new rows and history rows go to the server with
/// `COPY … FROM STDIN` (text format, escaped by the store), and join rows in one INSERT from
/// arrays, rather than an INSERT statement a row (the server records which ran): what a
/// fresh coordinator reads back must be exactly what was saved, a broken uniqueness constraint
/// must still name its objects and save nothing, and another instance must still follow.
@Suite("PostgreSQL: large saves (COPY)")
struct PostgreSQLCopySaveTests {
    /// Every attribute type the layout stores, and a many-to-many relationship (a join table).
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Item") {
                AttributeDescription("text", .string)
                AttributeDescription("number", .integer64)
                AttributeDescription("small", .integer16)
                AttributeDescription("real", .double)
                AttributeDescription("when", .date)
                AttributeDescription("blob", .binaryData)
                AttributeDescription("amount", .decimal)
                AttributeDescription("identifier", .uuid)
                AttributeDescription("flag", .boolean)
                AttributeDescription("link", .uri)
                RelationshipDescription("labels", to: "Label", inverse: "items", toMany: true)
            }
            EntityDescription("Label") {
                AttributeDescription("name", .string)
                RelationshipDescription("items", to: "Item", inverse: "labels", toMany: true)
            }
        }
    }

    static func open(_ url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Test", managedObjectModel: model())
        container.persistentStoreDescriptions = [PersistentStoreDescription(postgreSQLURL: url)]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        return container
    }

    /// Strings COPY's text format must escape, or could misread unescaped.
    static let awkward = [
        "tab\there", "line\nbreak", "carriage\rreturn", "crlf\r\n", #"back\slash"#, #"\N"#, #"\\N"#, "\\", "ends with backslash\\",
        "'single' \"double\" `back`", "emoji 🦕👩‍👩‍👧 ünïcödé", "<p class=\"x\">Hello &amp; <b>bye</b></p>", "", " ", "\\x00ff", "a,b;c|d",
        "\u{7F}\u{1}\u{1F}", String(repeating: "long ", count: 2_000),
    ]
    static let doubles: [Double] = [
        0.1, 1e300, -1e-300, .leastNonzeroMagnitude, .greatestFiniteMagnitude, -0.0, 1.0 / 3.0, 123_456_789.123_456_79, .infinity, -.infinity,
    ]

    /// The values of item `index`; every seventh has no values at all, every third no decimal
    /// and no URL.
    static func values(_ index: Int) -> [String: Any] {
        guard index % 7 != 3 else { return [:] }
        var bytes = [UInt8](repeating: 0, count: index % 40)
        for position in bytes.indices { bytes[position] = UInt8((position * 37 + index) % 256) }
        if index % 5 == 0 { bytes += Array("\\\t\n\r".utf8) + [0] }
        var values: [String: Any] = [
            "text": awkward[index % awkward.count] + String(index),
            "number": index == 5 ? Int64.min : index == 6 ? Int64.max : Int64(index) * (index.isMultiple(of: 2) ? Int64.max / 1_000 : -1),
            "small": Int64(index % 30_000),
            "real": doubles[index % doubles.count],
            "when": Date(timeIntervalSinceReferenceDate: Double(index) * 86_400.123_456 - 1e9),
            "blob": Data(bytes),
            "amount": Decimal(string: "\(index).\(index % 100)01")!,
            "identifier": UUID(),
            "flag": index.isMultiple(of: 2),
            "link": URL(string: "https://example.com/a%20b?q=\(index)&t=\\")!,
        ]
        // A row without a decimal or a URL is written in one pass over the buffer's memory;
        // one with them, field by field: both ways are read back.
        if index.isMultiple(of: 3) {
            values["amount"] = nil
            values["link"] = nil
        }
        return values
    }

    /// What a fresh coordinator reads of every item, by `number`-independent order (`text`).
    static func readBack(_ container: PersistentContainer) throws -> [String] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Item")
            return try context.fetch(request).map { item in
                let labels = (item.value(forKey: "labels") as? Set<ManagedObject>)?.compactMap { $0.value(forKey: "name") as? String }.sorted()
                return describe(item) + " labels=\(labels ?? [])"
            }
            .sorted()
        }
    }

    static let keys = ["text", "number", "small", "real", "when", "blob", "amount", "identifier", "flag", "link"]

    static func describe(_ item: ManagedObject) -> String {
        keys.map { key in
            switch item.value(forKey: key) {
            case let double as Double: "\(key)=\(double.bitPattern)"
            case let date as Date: "\(key)=\(date.timeIntervalSinceReferenceDate.bitPattern)"
            case let data as Data: "\(key)=\(data.map { String($0) }.joined(separator: "."))"
            case let value?: "\(key)=\(value)"
            case nil: "\(key)=nil"
            }
        }
        .joined(separator: " ")
    }

    /// Records, on the server, the statement text of every statement that inserts into one of
    /// the store's tables (a statement-level trigger on each table reads `current_query()`):
    /// ``insertStatements(in:)`` then tells COPY from INSERT.
    static func recordInserts(in url: URL) throws {
        try PostgresShell.run(
            """
            CREATE TABLE insert_log (tbl text, query text);
            CREATE FUNCTION log_insert() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
            BEGIN INSERT INTO insert_log VALUES (TG_TABLE_NAME, current_query()); RETURN NULL; END $$;
            DO $$ DECLARE t text; BEGIN
              FOR t IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() AND tablename <> 'insert_log' LOOP
                EXECUTE format('CREATE TRIGGER log_insert AFTER INSERT ON %I FOR EACH STATEMENT EXECUTE FUNCTION log_insert()', t);
              END LOOP;
            END $$;
            """,
            in: url
        )
    }

    /// The statements recorded by ``recordInserts(in:)``: table, then the statement's first
    /// word, then whether it reads `unnest(` arrays.
    static func insertStatements(in url: URL) throws -> [String] {
        try PostgresShell.run(
            "SELECT tbl || ' ' || split_part(ltrim(query), ' ', 1) || CASE WHEN query LIKE '%unnest(%' THEN ' unnest' ELSE '' END FROM insert_log ORDER BY 1",
            in: url
        )
    }

    @Test("a save of 500 items with awkward strings, nil values, doubles, dates, bytes and join rows reads back exactly")
    func roundTrip() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let container = try Self.open(url)
        try Self.recordInserts(in: url)
        let context = container.newBackgroundContext()
        let saved = try context.performAndWait {
            var labels: [ManagedObject] = []
            for index in 0..<100 {
                let label = EntityDescription.insertNewObject(forEntityName: "Label", into: context)
                label.setValue(Self.awkward[index % Self.awkward.count] + "#\(index)", forKey: "name")
                labels.append(label)
            }
            for index in 0..<500 {
                let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
                for (key, value) in Self.values(index) { item.setValue(value, forKey: key) }
                item.setValue(Set((0..<(index % 4)).map { labels[(index + $0 * 31) % labels.count] }), forKey: "labels")
            }
            try context.save()
            return try context.fetch(FetchRequest<ManagedObject>(entityName: "Item")).map { item in
                let labels = (item.value(forKey: "labels") as? Set<ManagedObject>)?.compactMap { $0.value(forKey: "name") as? String }.sorted()
                return Self.describe(item) + " labels=\(labels ?? [])"
            }
            .sorted()
        }
        #expect(saved.count == 500)
        let fresh = try Self.open(url)
        let read = try Self.readBack(fresh)
        #expect(read.count == saved.count)
        for (mine, theirs) in zip(saved, read) where mine != theirs {
            Issue.record("read back differs:\n\(mine.prefix(400))\n\(theirs.prefix(400))")
            break
        }
        #expect(read == saved)
        // And how the rows went, as the server saw them: the 500 items in one COPY, the join
        // rows (whose INSERT has a conflict clause COPY lacks) in one INSERT from unnest arrays.
        let statements = try Self.insertStatements(in: url)
        let items = statements.filter { $0.lowercased().hasPrefix("zitem ") }
        let joins = statements.filter { $0.lowercased().hasPrefix("z_1labels ") }
        #expect(items.map { $0.split(separator: " ").dropFirst().joined(separator: " ").uppercased() } == ["COPY"], "\(statements)")
        #expect(joins.map { $0.split(separator: " ").dropFirst().joined(separator: " ").uppercased() } == ["INSERT UNNEST"], "\(statements)")
    }

    @Test("a large save's did-save, made while the server takes its rows, names exactly what it inserted, updated and deleted")
    func didSavePayload() throws {
        let url = try StoreKind.newPostgresSchemaURL()
        let container = try Self.open(url)
        let context = container.newBackgroundContext()
        let (stored, removed) = try context.performAndWait {
            let items = (0..<10).map { index in
                let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
                item.setValue("stored \(index)", forKey: "text")
                return item
            }
            try context.save()
            return (items, items.prefix(2).map(\.objectID))
        }
        let payload = Mutex<[ContextDidSave]>([])
        let token = NotificationCenter.default.addObserver(forName: .managedObjectContextDidSave, object: context, queue: nil) { note in
            if let saved = note.contextDidSave { payload.withLock { $0.append(saved) } }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        let (inserted, updated) = try context.performAndWait {
            // 400 new rows for COPY (one in 18 with a 10 KB text: ~220 KB, more than COPY's first
            // 64 KB chunk, so the payload is made while the server takes the rest), with join
            // rows; three stored items changed, two deleted.
            let label = EntityDescription.insertNewObject(forEntityName: "Label", into: context)
            label.setValue("new", forKey: "name")
            var inserted: Set<ManagedObjectID> = [label.objectID]
            for index in 0..<400 {
                let item = EntityDescription.insertNewObject(forEntityName: "Item", into: context)
                for (key, value) in Self.values(index) { item.setValue(value, forKey: key) }
                if index.isMultiple(of: 5) { item.setValue(Set([label]), forKey: "labels") }
                inserted.insert(item.objectID)
            }
            for item in stored[2..<5] { item.setValue("changed", forKey: "text") }
            for item in stored.prefix(2) { context.delete(item) }
            try context.save()
            return (inserted, Set(stored[2..<5].map(\.objectID)))
        }
        let saves = payload.withLock { $0 }
        #expect(saves.count == 1)
        let saved = try #require(saves.first)
        #expect(saved.insertedObjectIDs.count == 401)
        #expect(saved.insertedObjectIDs == inserted)
        #expect(saved.updatedObjectIDs == updated)
        #expect(saved.deletedObjectIDs == Set(removed))
        #expect(saved.insertedObjectIDs.allSatisfy { !$0.isTemporaryID })
        // What the payload says is what another coordinator reads.
        let reader = try Self.open(url).newBackgroundContext()
        let texts = try reader.performAndWait {
            try reader.fetch(FetchRequest<ManagedObject>(entityName: "Item")).map { $0.value(forKey: "text") as? String }
        }
        #expect(texts.count == 408)
        #expect(texts.filter { $0 == "changed" }.count == 3)
        #expect(!texts.contains("stored 0") && !texts.contains("stored 1"))
    }

    @Test(
        "a large save that breaks a uniqueness constraint reports the conflicting objects and saves nothing",
        arguments: [false, true]
    )
    func uniquenessConflict(duplicateWithinSave: Bool) throws {
        let stack = try TestStack(.postgreSQL)
        let setup = stack.container.newBackgroundContext()
        let storedID = try setup.performAndWait {
            let photo = Photo(context: setup)
            photo.unique = duplicateWithinSave ? "elsewhere" : "p-150"
            photo.title = "Stored"
            try setup.save()
            return photo.objectID
        }
        let context = stack.container.newBackgroundContext()
        let error = try context.performAndWait {
            context.mergePolicy = .error
            for index in 0..<300 {
                let photo = Photo(context: context)
                photo.unique = "p-\(index)"
                photo.title = "tab\tline\n\(index)"
            }
            if duplicateWithinSave {
                let twin = Photo(context: context)
                twin.unique = "p-150"
            }
            return try #require(throws: ObjectGraphError.self) { try context.save() }
        }
        #expect(error.code == .constraintConflict)
        if !duplicateWithinSave {
            let photo = try #require(error.constraintConflicts.first { $0.entityName == "Photo" })
            #expect(photo.constraintValues["unique"] as? String == "p-150")
            #expect(photo.databaseObjectID == storedID)
            #expect(photo.conflictingObjectIDs.count == 1)
        }
        let reader = stack.container.newBackgroundContext()
        let stored = try reader.performAndWait { try reader.fetch(Photo.fetchRequest()).compactMap(\.unique) }
        #expect(stored == [duplicateWithinSave ? "elsewhere" : "p-150"])
    }

    @Test("another instance merges the history of a large save with join rows", .timeLimit(.minutes(10)))
    func largeSaveFollowed() async throws {
        let follower = try PostgreSQLRemoteChangeTests.follower(sortedBy: "unique")
        let (observer, other, context, controller) = (follower.observer, follower.other, follower.context, follower.controller)
        var changes = observer.persistentStoreCoordinator.remoteChanges.makeAsyncIterator()
        let writer = other.newBackgroundContext()
        try writer.performAndWait {
            let tags = (0..<10).map { index in
                let tag = Tag(context: writer)
                tag.name = "tag\(index)"
                return tag
            }
            for index in 0..<300 {
                let photo = Photo(context: writer)
                photo.unique = String(format: "p%03d", index)
                photo.title = "line\nbreak \(index)"
                photo.tags = [tags[index % 10], tags[(index + 3) % 10]]
            }
            try writer.save()
        }
        _ = try #require(await changes.next())
        let merged = context.performAndWait { (controller.fetchedObjects ?? []).map { "\($0.unique ?? "?") \($0.title ?? "nil") \($0.tags.count)" } }
        #expect(merged.count == 300)
        #expect(merged.first == "p000 line\nbreak 0 2")
        #expect(merged.last == "p299 line\nbreak 299 2")
    }
}
