import Foundation
import GRDBSQLite
import ObjectGraph
import ObjectGraphData

/// The benchmarks' row as a SwiftData app declares it: the same ten integers, `a` indexed,
/// stored as entity `Item` (table `ZITEM`), as the `@Managed` `Item` is.
enum SwiftDataModels {
    @Model
    final class Item {
        #Index<Item>([\.a])
        var a: Int64
        var b: Int64
        var c: Int64
        var d: Int64
        var e: Int64
        var f: Int64
        var g: Int64
        var h: Int64
        var i: Int64
        var j: Int64

        /// Row `row` of `n` as every contender writes it (see ``Models/value(row:column:of:)``).
        init(row: Int64, of n: Int64) {
            a = Models.value(row: row, column: 0, of: n)
            b = Models.value(row: row, column: 1, of: n)
            c = Models.value(row: row, column: 2, of: n)
            d = Models.value(row: row, column: 3, of: n)
            e = Models.value(row: row, column: 4, of: n)
            f = Models.value(row: row, column: 5, of: n)
            g = Models.value(row: row, column: 6, of: n)
            h = Models.value(row: row, column: 7, of: n)
            i = Models.value(row: row, column: 8, of: n)
            j = Models.value(row: row, column: 9, of: n)
        }
    }
}

/// A `@ModelActor`, as a SwiftData app's background work runs: its executor is its context's
/// queue, so its context calls run in place. The contenders run their work where one of its
/// jobs would run: on the context's queue.
@ModelActor
actor SwiftDataBenchActor {}

extension SwiftDataBenchActor {
    /// Runs `body` with the actor's context on the context's queue, where the actor's own
    /// methods run (its executor runs its jobs there), from the bench's synchronous code.
    nonisolated func runOnQueue(_ body: (ModelContext) throws -> Sample) throws -> Sample {
        let context = modelExecutor.modelContext
        return try context.managedObjectContext.performAndWait { try body(context) }
    }
}

/// Inserts `count` rows and saves, through SwiftData's API (ObjectGraphData) and through
/// ObjectGraph's typed API: the issue asks the first within 1.2× of the second.
struct SwiftDataInsertBenchmark: Benchmark {
    let count: Int

    var name: String { "SwiftData API: insert \(count.formatted) + save" }
    var notes: [String] {
        [
            "SwiftData API: the × raw C column is the ratio to ObjectGraph's typed API here (the reference row); both stores record persistent history and watch for remote changes, as SwiftData's do"
        ]
    }

    /// The timed part of every SwiftData-style contender: `n` items inserted into `context`,
    /// then one save.
    private static func insertAndSave(_ n: Int64, into context: ModelContext) throws -> Sample {
        try measureMilliseconds {
            for row in 1...n { context.insert(SwiftDataModels.Item(row: row, of: n)) }
            try context.save()
            return 0
        }
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let n = Int64(count)
        return [
            Contender(name: "ObjectGraph typed (@Managed), reference", role: .baseline) {
                let url = workspace.freshURL("sd-insert-og")
                defer { workspace.removeDatabase(at: url) }
                let container = try SwiftDataModels.typedContainer(at: url)
                let context = container.newBackgroundContext()
                var sample = try context.performAndWait {
                    try measureMilliseconds {
                        for row in 1...n {
                            let item = Item(context: context)
                            item.a = Models.value(row: row, column: 0, of: n)
                            item.b = Models.value(row: row, column: 1, of: n)
                            item.c = Models.value(row: row, column: 2, of: n)
                            item.d = Models.value(row: row, column: 3, of: n)
                            item.e = Models.value(row: row, column: 4, of: n)
                            item.f = Models.value(row: row, column: 5, of: n)
                            item.g = Models.value(row: row, column: 6, of: n)
                            item.h = Models.value(row: row, column: 7, of: n)
                            item.i = Models.value(row: row, column: 8, of: n)
                            item.j = Models.value(row: row, column: 9, of: n)
                        }
                        try context.save()
                        return 0
                    }
                }
                sample.checksum = try RawConnection(path: url.path).int(InsertBenchmark.checksumSQL)
                return sample
            },
            Contender(name: "ObjectGraphData (@Model, ModelContext)", role: .objectGraph) {
                let url = workspace.freshURL("sd-insert-data")
                defer { workspace.removeDatabase(at: url) }
                let container = try ModelContainer(for: SwiftDataModels.Item.self, configurations: ModelConfiguration(url: url))
                let context = ModelContext(container)
                var sample = try Self.insertAndSave(n, into: context)
                sample.checksum = try RawConnection(path: url.path).int(InsertBenchmark.checksumSQL)
                return sample
            },
            Contender(name: "ObjectGraphData @ModelActor", role: .objectGraph) {
                let url = workspace.freshURL("sd-insert-actor")
                defer { workspace.removeDatabase(at: url) }
                let container = try ModelContainer(for: SwiftDataModels.Item.self, configurations: ModelConfiguration(url: url))
                let actor = SwiftDataBenchActor(modelContainer: container)
                var sample = try actor.runOnQueue { context in
                    try Self.insertAndSave(n, into: context)
                }
                sample.checksum = try RawConnection(path: url.path).int(InsertBenchmark.checksumSQL)
                return sample
            },
            Contender(name: "ObjectGraphData mainContext (main actor)", role: .objectGraph) {
                let url = workspace.freshURL("sd-insert-main")
                defer { workspace.removeDatabase(at: url) }
                let container = try ModelContainer(for: SwiftDataModels.Item.self, configurations: ModelConfiguration(url: url))
                var sample = try MainActor.assumeIsolated {
                    let context = container.mainContext
                    return try Self.insertAndSave(n, into: context)
                }
                sample.checksum = try RawConnection(path: url.path).int(InsertBenchmark.checksumSQL)
                return sample
            },
        ]
    }
}

/// Fetches every row of a `count`-row table and reads all ten values, through SwiftData's API
/// and through ObjectGraph's typed API.
struct SwiftDataFetchBenchmark: Benchmark {
    let count: Int

    var name: String { "SwiftData API: fetch \(count.formatted) objects, read all values" }
    var notes: [String] {
        ["SwiftData API: each run uses a new context, so every object is materialized; the × raw C column is the ratio to the typed API"]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        let typedURL = try workspace.itemStore(rows: count)
        let typed = try Models.container(Models.item(), at: typedURL)
        let url = workspace.freshURL("sd-items-\(count)")
        try SwiftDataModels.fill(url, rows: count)
        let container = try ModelContainer(for: SwiftDataModels.Item.self, configurations: ModelConfiguration(url: url))
        return [
            Contender(name: "ObjectGraph typed (@Managed), reference", role: .baseline) {
                let context = typed.newBackgroundContext()
                return try context.performAndWait {
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        let request = Item.fetchRequest()
                        request.returnsObjectsAsFaults = false
                        for item in try context.fetch(request) {
                            sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                        }
                        return sum
                    }
                }
            },
            Contender(name: "ObjectGraphData (@Model, FetchDescriptor)", role: .objectGraph) {
                let context = ModelContext(container)
                return try measureMilliseconds {
                    var sum: Int64 = 0
                    for item in try context.fetch(FetchDescriptor<SwiftDataModels.Item>()) {
                        sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                    }
                    return sum
                }
            },
            Contender(name: "ObjectGraphData @ModelActor", role: .objectGraph) {
                let actor = SwiftDataBenchActor(modelContainer: container)
                return try actor.runOnQueue { context in
                    try measureMilliseconds {
                        var sum: Int64 = 0
                        for item in try context.fetch(FetchDescriptor<SwiftDataModels.Item>()) {
                            sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                        }
                        return sum
                    }
                }
            },
            Contender(name: "ObjectGraphData mainContext (main actor)", role: .objectGraph) {
                // A new container per run, so its main context has materialized nothing yet.
                let container = try ModelContainer(for: SwiftDataModels.Item.self, configurations: ModelConfiguration(url: url))
                return try MainActor.assumeIsolated {
                    let context = container.mainContext
                    return try measureMilliseconds {
                        var sum: Int64 = 0
                        for item in try context.fetch(FetchDescriptor<SwiftDataModels.Item>()) {
                            sum = sum &+ item.a &+ item.b &+ item.c &+ item.d &+ item.e &+ item.f &+ item.g &+ item.h &+ item.i &+ item.j
                        }
                        return sum
                    }
                }
            },
        ]
    }
}

extension SwiftDataModels {
    /// An ObjectGraph container of the `@Managed` `Item` at `url`, with the options a
    /// ModelContainer's store has (persistent history, remote change notifications).
    static func typedContainer(at url: URL) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Bench", managedObjectModel: Models.item())
        let description = PersistentStoreDescription(url: url)
        description.setOption(true, forKey: PersistentStore.persistentHistoryTrackingOption)
        description.setOption(true, forKey: PersistentStore.remoteChangeNotificationPostOption)
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Creates the store of a ModelContainer of ``Item`` at `url`, then writes `rows` rows into
    /// it with raw SQLite (not measured), as ``Workspace/itemStore(rows:)`` does.
    static func fill(_ url: URL, rows: Int) throws {
        do {
            let container = try ModelContainer(for: Item.self, configurations: ModelConfiguration(url: url))
            let coordinator = container.persistentContainer.persistentStoreCoordinator
            for store in coordinator.persistentStores { try coordinator.remove(store) }
        }
        let connection = try RawConnection(path: url.path)
        let code = try connection.int("SELECT Z_ENT FROM Z_PRIMARYKEY WHERE Z_NAME = 'Item'")
        try connection.execute("BEGIN")
        let statement = try connection.prepare(
            "INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZA, ZB, ZC, ZD, ZE, ZF, ZG, ZH, ZI, ZJ) VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
        )
        defer { sqlite3_finalize(statement) }
        let n = Int64(rows)
        for row in 1...n {
            sqlite3_bind_int64(statement, 1, row)
            sqlite3_bind_int64(statement, 2, code)
            for column in 0..<10 { sqlite3_bind_int64(statement, Int32(column + 3), Models.value(row: row, column: column, of: n)) }
            try connection.stepDone(statement)
            sqlite3_reset(statement)
        }
        try connection.execute("UPDATE Z_PRIMARYKEY SET Z_MAX = \(rows) WHERE Z_ENT = \(code)")
        try connection.execute("COMMIT")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }
}
