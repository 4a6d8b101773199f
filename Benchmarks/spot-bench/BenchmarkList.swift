/// Every benchmark, in the order they run and print. Add new benchmarks here.
enum BenchmarkList {
    static func all(sizes: Sizes, postgres: PostgresServer? = nil) -> [any Benchmark] {
        sqlite(sizes: sizes) + (postgres.map { Self.postgres(sizes: sizes, server: $0) } ?? [])
    }

    /// The benchmarks on SQLite (and in memory).
    static func sqlite(sizes: Sizes) -> [any Benchmark] {
        [
            InsertBenchmark(count: sizes.insertCount),
            FetchBenchmark(count: sizes.fetchCount),
            FetchObjectIDsBenchmark(count: sizes.fetchCount),
            SwiftDataInsertBenchmark(count: sizes.insertCount),
            SwiftDataFetchBenchmark(count: sizes.fetchCount),
            PredicateFetchBenchmark(rows: sizes.predicateRows, queries: sizes.predicateQueries, width: sizes.predicateWidth),
            RelationshipWalkBenchmark(photos: sizes.photos, tagsPerPhoto: sizes.tagsPerPhoto, tags: sizes.tags),
            MemoryBenchmark(rows: sizes.memoryRows, batchSize: 100),
            FetchedResultsBenchmark(count: sizes.listCount, changes: 100),
            FetchedResultsFirstFetchBenchmark(count: sizes.listCount),
            ImportBenchmark(existing: sizes.importExisting, newPhotos: sizes.importNew),
            RemoteChangeBenchmark(commits: sizes.remoteCommits),
            RemoteIdleBenchmark(seconds: sizes.idleSeconds),
        ]
    }

    /// The same workloads on PostgreSQL: ObjectGraph, Fluent and raw postgres-nio (`--postgres URL`).
    static func postgres(sizes: Sizes, server: PostgresServer) -> [any Benchmark] {
        [
            PostgresInsertBenchmark(count: sizes.insertCount, server: server),
            PostgresUpsertBenchmark(count: sizes.upsertCount, server: server),
            PostgresFetchBenchmark(count: sizes.fetchCount, server: server),
            PostgresPredicateFetchBenchmark(rows: sizes.predicateRows, queries: sizes.predicateQueries, width: sizes.predicateWidth, server: server),
            PostgresRelationshipWalkBenchmark(sizes: sizes, server: server),
            PostgresFetchedResultsBenchmark(count: sizes.listCount, changes: 100, server: server),
        ]
    }
}

/// The data sizes of a run: the figures, or small ones for a smoke run (`--quick`).
struct Sizes: Sendable {
    var insertCount = 50_000
    /// Objects a batch upsert writes, into as many stored rows that have their keys.
    var upsertCount = 10_000
    var fetchCount = 200_000
    var predicateRows = 1_000_000
    var predicateQueries = 100
    var predicateWidth = 1_000
    var photos = 10_000
    var tagsPerPhoto = 5
    var tags = 1_000
    var memoryRows = 1_000_000
    var listCount = 100_000
    var importExisting = 100_000
    var importNew = 10_000
    var remoteCommits = 200
    var idleSeconds = 5.0

    static let full = Sizes()
    static let quick = Sizes(
        insertCount: 5_000,
        upsertCount: 2_000,
        fetchCount: 20_000,
        predicateRows: 100_000,
        predicateQueries: 20,
        predicateWidth: 1_000,
        photos: 1_000,
        tagsPerPhoto: 5,
        tags: 200,
        memoryRows: 100_000,
        listCount: 10_000,
        importExisting: 10_000,
        importNew: 1_000,
        remoteCommits: 40,
        idleSeconds: 1
    )
}
