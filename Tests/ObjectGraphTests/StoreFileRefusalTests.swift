import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

/// A refused file must be exactly the file its owner had — main file, `-wal` and `-shm`, each
/// present or absent as before — so they can open it with the right version of their app.
@Suite("Refused store files are left byte for byte")
struct StoreFileRefusalTests {
    /// The state of a store's `-wal` (and `-shm`) when it is opened.
    enum WALState: String, CaseIterable, CustomTestStringConvertible {
        /// Closed cleanly: SQLite checkpointed and deleted both.
        case absent
        /// An empty `-wal`, no `-shm`.
        case empty
        /// An empty `-wal` beside a `-shm`.
        case emptyWithSHM
        /// Copied from a store still open: the `-wal` holds the latest writes, the `-shm` its index.
        case nonEmptyWithSHM
        /// As after a crash that lost the `-shm`: a `-wal` with writes and no index.
        case nonEmptyWithoutSHM

        var testDescription: String { rawValue }
    }

    /// The bytes of a store's three files; `nil` for a file that does not exist.
    struct FileBytes: Equatable, CustomStringConvertible {
        let main: Data?
        let wal: Data?
        let shm: Data?

        init(_ url: URL) {
            func read(_ suffix: String) -> Data? {
                FileManager.default.contents(atPath: url.path + suffix)
            }
            main = read("")
            wal = read("-wal")
            shm = read("-shm")
        }

        var description: String {
            func describe(_ data: Data?) -> String { data.map { "\($0.count) bytes" } ?? "absent" }
            return "main \(describe(main)), -wal \(describe(wal)), -shm \(describe(shm))"
        }
    }

    private static func directory() throws -> URL {
        let directory = TestDirectory.make("objectgraph-refusal")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Writes a database with `write` (which returns what keeps it open), then leaves a copy at
    /// a new path with its `-wal` and `-shm` as `state` says.
    private static func files(_ state: WALState, write: (URL) throws -> AnyObject) throws -> URL {
        let live = try directory().appendingPathComponent("Live.sqlite")
        let url = try directory().appendingPathComponent("Store.sqlite")
        var connection: AnyObject? = try write(live)
        let manager = FileManager.default
        let liveWAL = try #require(manager.contents(atPath: live.path + "-wal"), "an open WAL database has a -wal")
        let liveSHM = try #require(manager.contents(atPath: live.path + "-shm"), "an open WAL database has a -shm")
        switch state {
        case .nonEmptyWithSHM, .nonEmptyWithoutSHM:
            #expect(!liveWAL.isEmpty, "the writes are still in the -wal")
            try manager.copyItem(atPath: live.path, toPath: url.path)
            try liveWAL.write(to: URL(fileURLWithPath: url.path + "-wal"))
            if state == .nonEmptyWithSHM { try liveSHM.write(to: URL(fileURLWithPath: url.path + "-shm")) }
            connection = nil
        case .absent, .empty, .emptyWithSHM:
            connection = nil
            #expect(!manager.fileExists(atPath: live.path + "-wal"), "closing the database checkpointed and removed its -wal")
            try manager.copyItem(atPath: live.path, toPath: url.path)
            if state != .absent { try Data().write(to: URL(fileURLWithPath: url.path + "-wal")) }
            if state == .emptyWithSHM { try liveSHM.write(to: URL(fileURLWithPath: url.path + "-shm")) }
        }
        _ = connection
        return url
    }

    /// An ObjectGraph store of the SPoT model holding one tag, "quad".
    private static func spotStore(_ state: WALState) throws -> URL {
        try files(state) { url in
            let stack = try TestStack(file: url)
            let context = stack.container.newBackgroundContext()
            try context.performAndWait {
                let tag = Tag(context: context)
                tag.name = "quad"
                try context.save()
            }
            return stack.container
        }
    }

    private static let otherModel = ManagedObjectModel {
        EntityDescription("Tag") {
            AttributeDescription("name", .integer64)
            AttributeDescription("colour", .string)
        }
    }

    @Test("a store that another model cannot migrate is refused and left as it was", arguments: WALState.allCases)
    func anotherModel(_ state: WALState) throws {
        let url = try Self.spotStore(state)
        let before = FileBytes(url)
        let error = try #require(throws: ObjectGraphError.self) { try TestStack(model: Self.otherModel, file: url) }
        // The model was read from wherever it was, the -wal included: the migration was tried
        // on a copy and failed, listing what it could not migrate.
        #expect(error.code == .migrationFailed)
        #expect(error.differences.contains { $0.hasPrefix("Tag.name: the type changed from string to integer64") })
        let after = FileBytes(url)
        #expect(after == before, "before: \(before); after: \(after)")

        // The right model still opens the file and finds its data, the -wal's included.
        let stack = try TestStack(file: url)
        let context = stack.container.newBackgroundContext()
        let names = try context.performAndWait { try context.fetch(Tag.fetchRequest()).compactMap(\.name) }
        #expect(names == ["quad"])
    }

    @Test("a store another coordinator has open, its writes still in the -wal, opens and shows them")
    func openElsewhere() throws {
        let first = try TestStack()
        let url = try #require(first.url)
        let writer = first.container.newBackgroundContext()
        try writer.performAndWait {
            let tag = Tag(context: writer)
            tag.name = "quad"
            try writer.save()
        }
        #expect((FileBytes(url).wal?.count ?? 0) > 0)
        let second = try TestStack(file: url)
        let reader = second.container.newBackgroundContext()
        let names = try reader.performAndWait { try reader.fetch(Tag.fetchRequest()).compactMap(\.name) }
        #expect(names == ["quad"])
        _ = first
    }

    @Test("a read-only open of a store that does not exist yet is refused without creating it")
    func readOnlyCreation() throws {
        let url = try Self.directory().appendingPathComponent("Missing.sqlite")
        let coordinator = PersistentStoreCoordinator(managedObjectModel: SPoTModel.make())
        let error = try #require(throws: ObjectGraphError.self) {
            try coordinator.addPersistentStore(type: .sqlite, at: url, options: [PersistentStore.readOnlyOption: true])
        }
        #expect(error.message.contains(url.path))
        let after = FileBytes(url)
        #expect(after.main == nil && after.wal == nil && after.shm == nil, "\(after)")
    }

    @Test("an SQLite database of another app is refused and left as it was", arguments: WALState.allCases)
    func foreignDatabase(_ state: WALState) throws {
        let url = try Self.files(state) { url in
            let pool = try DatabasePool(path: url.path)
            try pool.write { db in
                try db.execute(sql: "CREATE TABLE notes (text TEXT)")
                try db.execute(sql: "INSERT INTO notes (text) VALUES ('buy film')")
            }
            return pool
        }
        let before = FileBytes(url)
        let error = try #require(throws: ObjectGraphError.self) { try TestStack(file: url) }
        #expect(error.code == .persistentStoreInvalidType)
        #expect(error.message.contains("notes"), "the refusal names the tables it found: \(error.message)")
        let after = FileBytes(url)
        #expect(after == before, "before: \(before); after: \(after)")
    }

    @Test("a damaged SQLite file is refused and left as it was", arguments: [WALState.absent, .empty, .emptyWithSHM])
    func damagedFile(_ state: WALState) throws {
        let url = try Self.directory().appendingPathComponent("Damaged.sqlite")
        var bytes = Data("SQLite format 3\0".utf8)
        bytes.append(Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 17) }))
        try bytes.write(to: url)
        if state != .absent { try Data().write(to: URL(fileURLWithPath: url.path + "-wal")) }
        if state == .emptyWithSHM { try Data(repeating: 0, count: 32768).write(to: URL(fileURLWithPath: url.path + "-shm")) }
        let before = FileBytes(url)
        let error = try #require(throws: ObjectGraphError.self) { try TestStack(file: url) }
        #expect(error.code == .persistentStoreInvalidType)
        #expect(error.message.contains(url.path))
        let after = FileBytes(url)
        #expect(after == before, "before: \(before); after: \(after)")
    }

    @Test(
        "a damaged main file beside a -wal of writes is refused and left as it was",
        arguments: [WALState.nonEmptyWithSHM, .nonEmptyWithoutSHM]
    )
    func damagedFileWithWAL(_ state: WALState) throws {
        // A real -wal (and -shm) of a store beside a main file that is no longer SQLite.
        let url = try Self.spotStore(state)
        var damaged = try Data(contentsOf: url)
        damaged.replaceSubrange(0..<16, with: Data("SQLite format 2\0".utf8))
        try damaged.write(to: url)
        let before = FileBytes(url)
        let error = try #require(throws: ObjectGraphError.self) { try TestStack(file: url) }
        #expect(error.code == .persistentStoreInvalidType)
        let after = FileBytes(url)
        #expect(after == before, "before: \(before); after: \(after)")
    }

    @Test("a file that is not SQLite, and an empty file beside a -wal, are refused and left as they were")
    func notSQLite() throws {
        let notes = try Self.directory().appendingPathComponent("Notes.sqlite")
        try Data("these are my holiday notes, not a database".utf8).write(to: notes)
        let before = FileBytes(notes)
        #expect(throws: ObjectGraphError.self) { try TestStack(file: notes) }
        #expect(FileBytes(notes) == before)

        // An empty main file whose -wal holds writes: SQLite would delete that -wal.
        let emptied = try Self.spotStore(.nonEmptyWithoutSHM)
        try Data().write(to: emptied)
        let emptiedBefore = FileBytes(emptied)
        let error = try #require(throws: ObjectGraphError.self) { try TestStack(file: emptied) }
        #expect(error.message.contains("-wal"))
        #expect(FileBytes(emptied) == emptiedBefore)
    }
}
