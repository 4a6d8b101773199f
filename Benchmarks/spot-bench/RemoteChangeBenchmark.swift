import Flickr
import Foundation
import ObjectGraph
import Synchronization

/// How fast another process's commit reaches a fetched results controller: process B (this
/// binary re-run as a child) inserts one item per save at irregular intervals and prints when
/// each save returned; process A's controller, on a context that merges automatically, notes
/// when it reports the insert. The latency is the difference, on the shared monotonic clock.
///
/// Against the floor a poller can reach: raw SQLite C asking `PRAGMA data_version` every
/// millisecond on its own connection and reading the new row.
struct RemoteChangeBenchmark: Benchmark {
    let commits: Int

    /// The hidden argument that makes the binary the writing child.
    static let childFlag = "--remote-writer"

    var name: String { "remote changes: commit in another process → fetched results controller (\(commits) commits)" }
    var fixedRuns: Int? { 1 }
    var notes: [String] {
        [
            "remote changes: a child process inserts \(commits) items, one save each, 10–50 ms apart (random, so commits fall anywhere between polls); latency = the controller's insert report in this process − the child's save returning (CLOCK_MONOTONIC in both). ObjectGraph: persistent history + remote change notifications, polling every 40 ms (the default); raw C: a thread polling PRAGMA data_version every 1 ms and reading the row (the floor for a poller). Targets: median ≤ 250 ms, p99 ≤ 1 s"
        ]
    }

    func contenders(in workspace: Workspace) throws -> [Contender] {
        var latencies: [String: [Double]] = [:]
        func measured(_ kind: String, _ percentile: Double) -> () throws -> Sample {
            {
                if latencies[kind] == nil { latencies[kind] = try Self.latencies(kind: kind, commits: commits, url: workspace.freshURL("remote")) }
                let sorted = latencies[kind]!.sorted()
                let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * percentile).rounded()))
                return Sample(value: sorted[index], checksum: Int64(sorted.count))
            }
        }
        return [
            Contender(name: "ObjectGraph FRC, median", role: .objectGraph, run: measured("objectgraph", 0.5)),
            Contender(name: "ObjectGraph FRC, p99", role: .objectGraph, run: measured("objectgraph", 0.99)),
            Contender(name: "raw SQLite C poller (1 ms), median", role: .baseline, run: measured("raw", 0.5)),
            Contender(name: "raw SQLite C poller (1 ms), p99", role: .baseline, run: measured("raw", 0.99)),
        ]
    }

    /// Runs a writer child against a store at `url` and returns each commit's latency in ms.
    static func latencies(kind: String, commits: Int, url: URL) throws -> [Double] {
        let container = try remoteContainer(at: url, notifications: kind == "objectgraph")
        let arrivals = Arrivals()
        let recorder = ArrivalRecorder(arrivals: arrivals)
        let context = container.newBackgroundContext()
        context.automaticallyMergesChangesFromParent = true
        let controller: FetchedResultsController<Item> = try context.performAndWait {
            let request = Item.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "a", ascending: true)]
            let controller = FetchedResultsController(fetchRequest: request, managedObjectContext: context, sectionNameKeyPath: nil, cacheName: nil)
            controller.delegate = recorder
            try controller.performFetch()
            return controller
        }
        let poller = kind == "raw" ? try RawPoller(path: url.path, arrivals: arrivals) : nil
        let commitTimes = try runWriter(path: url.path, commits: commits)
        // Wait (bounded) for the last arrivals.
        let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        while arrivals.times.withLock({ $0.count }) < commits, DispatchTime.now().uptimeNanoseconds < deadline { usleep(1_000) }
        poller?.stop()
        withExtendedLifetime(controller) {}
        let seen = arrivals.times.withLock { $0 }
        guard seen.count == commits else { throw RawConnection.Failure(description: "\(kind): \(seen.count) of \(commits) commits arrived") }
        return commitTimes.map { number, committed in Double(Int64(seen[number]!) - Int64(committed)) / 1_000_000 }
    }

    /// The Item store at `url`, with history (and remote notifications when `notifications`).
    static func remoteContainer(at url: URL, notifications: Bool) throws -> PersistentContainer {
        let container = PersistentContainer(name: "Bench", managedObjectModel: Models.item())
        let description = PersistentStoreDescription(url: url)
        description.setOption(true, forKey: PersistentStore.persistentHistoryTrackingOption)
        description.setOption(notifications, forKey: PersistentStore.remoteChangeNotificationPostOption)
        container.persistentStoreDescriptions = [description]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        return container
    }

    /// Runs the writer child; returns when each save returned, by item number.
    private static func runWriter(path: String, commits: Int) throws -> [Int64: UInt64] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = [childFlag, path, String(commits)]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        var times: [Int64: UInt64] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 2, let number = Int64(fields[0]), let time = UInt64(fields[1]) { times[number] = time }
        }
        guard process.terminationStatus == 0, times.count == commits else {
            throw RawConnection.Failure(description: "remote writer failed (status \(process.terminationStatus)): \(output.suffix(300))")
        }
        return times
    }

    /// The child's work: `commits` saves of one item each, printing "NUMBER MONOTONIC-NS".
    static func runChild(arguments: [String]) throws {
        guard arguments.count == 2, let commits = Int(arguments[1]) else {
            throw RawConnection.Failure(description: "usage: \(childFlag) PATH COMMITS")
        }
        let container = try remoteContainer(at: URL(fileURLWithPath: arguments[0]), notifications: false)
        let context = container.newBackgroundContext()
        var random = SystemRandomNumberGenerator()
        for number in 1...commits {
            usleep(UInt32.random(in: 10_000...50_000, using: &random))
            try context.performAndWait {
                let item = Item(context: context)
                item.a = Int64(number)
                try context.save()
                context.reset()
            }
            print("\(number) \(DispatchTime.now().uptimeNanoseconds)")
        }
    }
}

/// Notes when a controller reports each inserted item (by its `a`).
private final class ArrivalRecorder: FetchedResultsControllerDelegate {
    let arrivals: Arrivals
    init(arrivals: Arrivals) { self.arrivals = arrivals }

    func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType,
        newIndexPath: IndexPath?
    ) {
        guard type == .insert, let item = anObject as? Item else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let number = item.a
        arrivals.times.withLock { $0[number] = $0[number] ?? now }
    }
}

/// The floor: a thread asking `PRAGMA data_version` every millisecond on its own connection,
/// reading the rows past the last one seen when it moves.
private final class RawPoller: @unchecked Sendable {
    // @unchecked Sendable: `stopped` is guarded by its lock; the connection is used by the thread only.
    private let stopped = Mutex(false)
    private let finished = DispatchSemaphore(value: 0)

    init(path: String, arrivals: Arrivals) throws {
        _ = try RawConnection(path: path)  // fails here, not on the thread, if the file cannot be opened
        Thread.detachNewThread { [self] in
            guard let connection = try? RawConnection(path: path) else { return }
            var version: Int64 = -1
            var last: Int64 = 0
            while !stopped.withLock({ $0 }) {
                let current = (try? connection.int("PRAGMA data_version")) ?? version
                if current != version {
                    version = current
                    let rows = ((try? connection.strings("SELECT ZA FROM ZITEM WHERE Z_PK > \(last) ORDER BY Z_PK")) ?? []).compactMap { Int64($0) }
                    let now = DispatchTime.now().uptimeNanoseconds
                    if let maxPK = try? connection.int("SELECT IFNULL(MAX(Z_PK), 0) FROM ZITEM") { last = maxPK }
                    arrivals.times.withLock { arrivals in for number in rows { arrivals[number] = arrivals[number] ?? now } }
                }
                usleep(1_000)
            }
            finished.signal()
        }
    }

    func stop() {
        stopped.withLock { $0 = true }
        finished.wait()
    }
}

/// When each item arrived (uptime nanoseconds by its `a`), shared by the recorder or poller
/// and the measuring code.
private final class Arrivals: Sendable {
    let times = Mutex<[Int64: UInt64]>([:])
}
