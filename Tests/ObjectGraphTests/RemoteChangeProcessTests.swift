import Foundation
import ObjectGraphPeerModel
import Synchronization
import TestSupport
import Testing

@testable import ObjectGraph

/// Another process saves to the store (a real child process, `objectgraph-remote-peer`); this
/// process's fetched results controllers, on a context that merges automatically, must report
/// exactly the changes that make them equal to a fresh fetch — after every step.
@Suite("Remote changes from another process", .serialized, .timeLimit(.minutes(10)))
struct RemoteChangeProcessTests {
    /// A new store file's URL in a directory of its own.
    static func storeURL() -> URL {
        TestDirectory.make("objectgraph-remote")
            .appendingPathComponent("Peer.sqlite")
    }

    /// The observer, then the peer on the same file, seeded with owners and labelled items.
    static func start(options: [String: any Sendable] = [:], peerArguments: [String] = []) async throws -> (RemoteObserver, RemotePeer) {
        let url = storeURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let observer = try RemoteObserver(url: url, options: options)
        let peer = try RemotePeer(store: url, arguments: peerArguments)
        return (observer, peer)
    }

    @Test("each kind of change another process saves reaches the controllers as a fresh fetch has it")
    func everyKindOfChange() async throws {
        let (observer, peer) = try await Self.start()
        defer { peer.quit() }
        let steps = [
            "insert apple A ada", "insert pear B ada", "insert fig A bob", "insert kiwi C",
            "label apple red", "label fig red", "label kiwi blue",
            "rename apple zucchini",  // moves within its section and in "red items"
            "regroup pear C",  // changes section
            "own kiwi ada",  // to-one set through an ordered to-many; joins "ada's items"
            "reverse ada",  // ordered relationship reordered
            "unlabel fig red",  // leaves "red items" through a many-to-many change
            "bump A",  // batch update: ranks change, "ada's items" reorders
            "delete fig",
            "purge C",  // batch delete: rows, join rows and an ordered membership go
        ]
        for step in steps {
            try await peer.send(step)
            observer.container.persistentStoreCoordinator.checkForRemoteChanges()
            let failures = try observer.check(after: step)
            #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        }
        let owners = try observer.context.performAndWait {
            try observer.context.fetch(FetchRequest<ManagedObject>(entityName: "Owner")).map(RemoteObserver.describeOwner).sorted()
        }
        #expect(owners == ["ada: [\"zucchini\"]", "bob: []"])
    }

    @Test("a seeded random sequence (150 steps a seed, 300 a run) keeps every controller equal to a fresh fetch", arguments: [UInt64(1), 2])
    func randomSequence(seed: UInt64) async throws {
        let (observer, peer) = try await Self.start()
        defer { peer.quit() }
        for number in 0..<150 {
            let stepSeed = seed &* 1_000_003 &+ UInt64(number)
            let reply = try await peer.send("random \(stepSeed)")
            observer.container.persistentStoreCoordinator.checkForRemoteChanges()
            let failures = try observer.check(after: "step \(number) (\(reply))")
            #expect(failures.isEmpty, "seed \(seed): \(failures.joined(separator: "\n"))")
            if !failures.isEmpty { break }
        }
    }

    @Test("changes arrive by themselves: the timer notices the commit, posts the notification and feeds the sequence")
    func arrivesWithoutAsking() async throws {
        let (observer, peer) = try await Self.start()
        defer { peer.quit() }
        let coordinator = observer.container.persistentStoreCoordinator
        // What each posted notification's user info held: store UUID, history token, file name.
        let posted = Mutex<[(store: String?, token: PersistentHistoryToken?, file: String?)]>([])
        let token = NotificationCenter.default.addObserver(forName: .persistentStoreRemoteChange, object: coordinator, queue: nil) { note in
            let info = note.userInfo
            let entry = (
                store: info?[StoreUUIDKey] as? String,
                token: info?[PersistentHistoryTokenKey] as? PersistentHistoryToken,
                file: (info?[StoreURLKey] as? URL)?.lastPathComponent
            )
            posted.withLock { $0.append(entry) }
        }
        defer { NotificationCenter.default.removeObserver(token) }
        var changes = coordinator.remoteChanges.makeAsyncIterator()
        try await peer.send("insert apple A")
        let change = try #require(await changes.next())
        #expect(change.storeIdentifier == coordinator.persistentStores.first?.identifier)
        #expect(change.historyToken == coordinator.currentPersistentHistoryToken())
        #expect(!change.historyWasLost)
        // The merge was queued on the context before the element arrived.
        let failures = try observer.check(after: "insert apple A")
        #expect(failures.isEmpty, "\(failures)")
        let notes = posted.withLock { $0 }
        #expect(notes.count == 1)
        #expect(notes.first?.store == change.storeIdentifier)
        #expect(notes.first?.token == change.historyToken)
        #expect(notes.first?.file == "Peer.sqlite")
    }

    @Test("a writer killed with SIGKILL mid-save never shows half a save")
    func killedWriter() async throws {
        let (observer, peer) = try await Self.start()
        let coordinator = observer.container.persistentStoreCoordinator
        // Each of the peer's saves inserts 25 items into group F; it prints "saved N" after
        // each. Reading its output (not counting notifications, which a loaded machine
        // coalesces) ends the loop when the peer stops, whatever the reason. At most 120
        // saves: on a loaded machine this process reads slowly, and an unbounded flood (once
        // 260,000 items) left the final check more changes than it could merge in the time limit.
        peer.write("flood 25 120")
        var seen = 0
        while seen < 8, let line = await peer.nextLine() {
            guard line.hasPrefix("saved ") else { continue }
            seen += 1
            coordinator.checkForRemoteChanges()
            let counts = try observer.context.performAndWait { try Self.itemsPerSave(in: observer.context) }
            #expect(counts.values.allSatisfy { $0 == 25 }, "a save shows partly: \(counts)")
        }
        #expect(seen == 8, "the peer stopped after \(seen) saves")
        peer.kill()
        coordinator.checkForRemoteChanges()
        let failures = try observer.check(after: "SIGKILL")
        #expect(failures.isEmpty, "\(failures)")
        let counts = try observer.context.performAndWait { try Self.itemsPerSave(in: observer.context) }
        #expect(counts.count >= 8 && counts.values.allSatisfy { $0 == 25 }, "\(counts)")
    }

    /// How many items each of the flooding peer's saves left, by save number.
    static func itemsPerSave(in context: ManagedObjectContext) throws -> [String: Int] {
        let request = FetchRequest<ManagedObject>(entityName: "Item")
        request.predicate = FetchPredicate(format: "group == 'F'")
        var counts: [String: Int] = [:]
        for item in try context.fetch(request) {
            let name = item.value(forKey: "name") as? String ?? ""
            counts[String(name.prefix { $0 != "-" }), default: 0] += 1
        }
        return counts
    }

    @Test("history pruned before this process read it: told so, and the controllers fetch anew instead of missing changes")
    func expiredHistory() async throws {
        // This process checks only when asked; the peer keeps at most 2 transactions.
        let (observer, peer) = try await Self.start(
            options: [PersistentStore.remoteChangePollingIntervalOption: 3_600.0],
            peerArguments: ["--keep-history", "2"]
        )
        defer { peer.quit() }
        let coordinator = observer.container.persistentStoreCoordinator
        try await peer.send("insert first A")
        coordinator.checkForRemoteChanges()
        let before = try #require(coordinator.currentPersistentHistoryToken())
        for index in 0..<40 { try await peer.send("insert item\(index) \(PeerModel.groups[index % 4])") }
        var changes = coordinator.remoteChanges.makeAsyncIterator()
        coordinator.checkForRemoteChanges()
        let change = try #require(await changes.next())
        #expect(change.historyWasLost)
        let failures = try observer.check(after: "40 inserts with history pruned")
        #expect(failures.isEmpty, "\(failures)")
        // Core Data's manual recipe sees the same gap as an error, not as an empty history.
        let context = observer.container.newBackgroundContext()
        let error = try context.performAndWait {
            try #require(throws: ObjectGraphError.self) { try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: before)) }
        }
        #expect(error.code == .persistentHistoryTokenExpired)
        // From the new token on, changes merge one by one again.
        try await peer.send("rename item3 aaa")
        coordinator.checkForRemoteChanges()
        let next = try #require(await changes.next())
        #expect(!next.historyWasLost)
        let checked = try observer.check(after: "rename after the gap")
        #expect(checked.isEmpty, "\(checked)")
    }
}
