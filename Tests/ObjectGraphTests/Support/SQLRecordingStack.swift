import Foundation
import ObjectGraph
import TestSupport
import Testing

/// A container on a fresh SQLite file that records every SQL statement its store runs, in
/// the style of GRDB's `GRDBTestCase`: tests assert on the SQL a fetch, a fault or a save
/// produced, which is how batching and prefetching are proved.
///
/// ```swift
/// let stack = try SQLRecordingStack()
/// let statements = try stack.recording { try context.save() }
/// #expect(statements.filter { $0.hasPrefix("INSERT INTO ZPHOTO") }.count == 3)
/// ```
///
/// The store executes statements on its own connections: record only while one context at a
/// time works, or the log interleaves their statements.
final class SQLRecordingStack: Sendable {
    let container: PersistentContainer
    let url: URL
    private let log = StatementLog()

    init(model: ManagedObjectModel = SPoTModel.make()) throws {
        url = TestDirectory.make("objectgraph-sql")
            .appendingPathComponent("Store.sqlite")
        let description = PersistentStoreDescription(url: url)
        description.setOption(log.observer, forKey: PersistentStore.sqlStatementObserverOption)
        container = PersistentContainer(name: "Recorded", managedObjectModel: model)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
    }

    /// The statements executed while `body` ran, in order (one entry per execution: a
    /// statement run for three rows appears three times).
    func recording<T>(_ body: () throws -> T) rethrows -> [String] {
        _ = log.take()
        _ = try body()
        return log.take()
    }
}

/// The statements an observer saw, guarded by a lock (the observer runs on the store's
/// connection threads).
final class StatementLog: Sendable {
    private let lock = NSLock()
    nonisolated(unsafe) private var statements: [String] = []  // guarded by `lock`

    var observer: SQLStatementObserver {
        { [self] sql in
            lock.lock()
            statements.append(sql)
            lock.unlock()
        }
    }

    func take() -> [String] {
        lock.lock()
        defer {
            statements = []
            lock.unlock()
        }
        return statements
    }
}

extension [String] {
    /// The statements that touch data: without GRDB's schema version checks (before it reuses
    /// a statement) and the row cache's `PRAGMA data_version` checks.
    var touchingData: [String] {
        filter { !$0.hasPrefix("PRAGMA schema_version") && !$0.hasPrefix("PRAGMA data_version") }
    }

    /// The statements that read (`SELECT`) from `table`.
    func selects(from table: String) -> [String] {
        filter { $0.hasPrefix("SELECT") && $0.contains("FROM \(table)") }
    }

    /// The statements that insert into `table`.
    func inserts(into table: String) -> [String] {
        filter { $0.hasPrefix("INSERT INTO \(table) ") || $0.hasPrefix("INSERT INTO \(table)(") }
    }
}
