import Foundation
import ObjectGraph
import TestSupport
import Testing

/// Rows another process committed that live only in the store's `-wal` (it ended without
/// checkpointing, as an app killed in the background does) are read.
@Suite("Core Data stores: rows only in the -wal")
struct CoreDataStoreWALTests {
    @Test("a row committed by a process that exited without a checkpoint is read, read-only and read-write")
    func rowsOnlyInWAL() throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        // The child commits in WAL mode, then exits at once: SQLite never checkpoints.
        let writer = """
            import os, sqlite3, sys
            db = sqlite3.connect(sys.argv[1], isolation_level=None)
            assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
            db.execute("BEGIN")
            db.execute("INSERT INTO ZUSER (Z_PK, Z_ENT, Z_OPT, ZNAME, ZPETNAME) VALUES (13, 1, 1, 'Only in the WAL', NULL)")
            db.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = 13 WHERE Z_NAME = 'User'")
            db.execute("COMMIT")
            sys.stdout.flush()
            os._exit(0)
            """
        let (status, _) = try ChildExecutable.run(URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", writer, store.path])
        #expect(status == 0)
        let walSize = try FileManager.default.attributesOfItem(atPath: store.path + "-wal")[.size] as? Int ?? 0
        #expect(walSize > 0, "the row is in the -wal only")
        let reference = try CoreDataStoreFixtures.reference(["entity", store.path, "User"])
        #expect(reference["count"] as? Int == 13)

        for readOnly in [true, false] {
            let container = try CoreDataStoreReadingTests.open(
                url: store,
                model: "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel",
                readOnly: readOnly
            )
            let context = container.newBackgroundContext()
            try context.performAndWait {
                #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "User")) == 13)
                let request = FetchRequest<ManagedObject>(entityName: "User")
                request.predicate = FetchPredicate(format: "name == %@", "Only in the WAL")
                let found = try context.fetch(request)
                #expect(found.map(\.objectID.primaryKey) == [13], "read-only: \(readOnly)")
            }
        }
    }
}
