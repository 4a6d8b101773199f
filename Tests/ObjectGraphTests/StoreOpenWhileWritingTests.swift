import Foundation
import GRDB
import ObjectGraph
import TestSupport
import Testing

/// Another program (or process) writing to a store must not keep this one from opening and
/// reading it: an up-to-date store opens without taking the write lock (WAL readers never wait).
@Suite("Opening a store while another connection writes")
struct StoreOpenWhileWritingTests {
    @Test func anUpToDateStoreOpensAndReadsWhileAnotherConnectionHoldsTheWriteLock() throws {
        let directory = TestDirectory.make("objectgraph-locked")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("Store.sqlite")
        // The app that wrote the store is still running (a server beside a command-line tool).
        let running = try TestStack(file: url)
        let writer = running.container.newBackgroundContext()
        try writer.performAndWait {
            Tag(context: writer).name = "quad"
            try writer.save()
        }
        // Another connection holds a write transaction for the rest of the test.
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: url.path, configuration: configuration)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN IMMEDIATE") }
        defer { try? other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") } }

        // This one waits a fifth of a second for the write lock.
        let container = PersistentContainer(name: "Test", managedObjectModel: SPoTModel.make())
        let description = PersistentStoreDescription(url: url)
        description.setOption(0.2, forKey: PersistentStore.timeoutOption)
        container.persistentStoreDescriptions = [description]
        var loadError: (any Error)?
        container.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let context = container.newBackgroundContext()
        let names = try context.performAndWait { try context.fetch(Tag.fetchRequest()).compactMap(\.name) }
        #expect(names == ["quad"])
        // A save waits for the lock and then reports it, naming the store, rather than losing the change.
        let error = try context.performAndWait { () -> (any Error)? in
            try context.fetch(Tag.fetchRequest()).first?.name = "oval"
            do {
                try context.save()
                return nil
            } catch {
                return error
            }
        }
        let failure = try #require(error as? ObjectGraphError)
        #expect("\(failure)".contains("locked"), "\(failure)")
        #expect(context.performAndWait { context.hasChanges }, "the unsaved change is kept for a retry")
        #expect(try writer.performAndWait { try writer.count(for: Tag.fetchRequest()) } == 1)
    }
}
