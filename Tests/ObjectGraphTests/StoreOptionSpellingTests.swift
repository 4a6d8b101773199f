import Foundation
import Logging
import ObjectGraphPeerModel
import Synchronization
import Testing

@testable import ObjectGraph

/// An option set by a spelling Core Data does not read still works, and says so in the log,
/// once, naming the key Core Data reads.
@Suite("Store options by Core Data's spellings", .serialized)
struct StoreOptionSpellingTests {
    /// What a recording handler saw.
    final class Lines: Sendable {
        let value = Mutex<[String]>([])
    }

    /// Records what is logged through it.
    struct RecordingHandler: LogHandler {
        let lines: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            lines.value.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }

    /// Runs `body` with the `ObjectGraph` logger recording, from a process that has warned of
    /// nothing; returns what was logged.
    static func recordingWarnings(_ body: () throws -> Void) rethrows -> [String] {
        let box = Lines()
        let saved = OptionSpellings.logger
        OptionSpellings.logger = Logger(label: "ObjectGraph", factory: { _ in RecordingHandler(lines: box) })
        OptionSpellings.forgetWarnings()
        defer { OptionSpellings.logger = saved }
        try body()
        return box.value.withLock { $0 }
    }

    @Test("the remote-change option by its constant's name still posts remote changes, with one warning naming Core Data's key")
    func remoteChangeOptionByName() async throws {
        let url = RemoteChangeProcessTests.storeURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let misspelled = "NSPersistentStoreRemoteChangeNotificationPostOptionKey"
        var observer: PersistentContainer?
        let lines = try Self.recordingWarnings {
            let options: [String: any Sendable] = [misspelled: true as NSNumber, PersistentStore.remoteChangePollingIntervalOption: 3_600.0]
            observer = try PeerModel.open(url, remoteChanges: false, options: options)
            // A second store by the same spelling is not warned about again.
            _ = try PeerModel.open(url, remoteChanges: false, options: options)
        }
        #expect(lines.count == 1, "\(lines)")
        #expect(lines.first?.hasPrefix("warning") == true)
        #expect(lines.first?.contains(misspelled) == true)
        #expect(lines.first?.contains("\"NSPersistentStoreRemoteChangeNotificationOptionKey\"") == true)

        // And it works: another coordinator's save is announced as a remote change.
        let coordinator = try #require(observer).persistentStoreCoordinator
        var changes = coordinator.remoteChanges.makeAsyncIterator()
        let other = try PeerModel.open(url, remoteChanges: false)
        try RemoteChangeCoordinatorTests.insert("theirs", in: other)
        coordinator.checkForRemoteChanges()
        let change = try #require(await changes.next())
        #expect(change.historyToken == other.persistentStoreCoordinator.currentPersistentHistoryToken())
    }

    @Test("ObjectGraph's old read-only spelling still opens the store read-only, with a warning; Core Data's key is the description's isReadOnly")
    func readOnlyByOldSpelling() throws {
        let url = RemoteChangeProcessTests.storeURL()
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        _ = try PeerModel.open(url, remoteChanges: false)
        var readOnly: PersistentContainer?
        let lines = try Self.recordingWarnings {
            readOnly = try PeerModel.open(url, remoteChanges: false, options: ["ReadOnly": true])
        }
        #expect(lines.count == 1 && lines.first?.contains("\"NSReadOnlyPersistentStoreOption\"") == true, "\(lines)")
        let context = try #require(readOnly).newBackgroundContext()
        #expect(throws: (any Error).self) {
            try context.performAndWait {
                try context.insertObject(entityName: "Item").setValue("x", forKey: "name")
                try context.save()
            }
        }

        let description = PersistentStoreDescription(url: url)
        description.isReadOnly = true
        #expect(description.options["NSReadOnlyPersistentStoreOption"] as? Bool == true)
        let byKey = PersistentStoreDescription(url: url)
        byKey.setOption(true as NSNumber, forKey: "NSReadOnlyPersistentStoreOption")
        #expect(byKey.isReadOnly)
    }
}
