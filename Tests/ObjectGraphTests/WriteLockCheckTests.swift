import Foundation
import GRDB
import TestSupport
import Testing

@testable import ObjectGraph

/// `checkWriteLock(patience:)` tells another program holding an SQLite file's write lock (an
/// outage for a server beside it) from this process's own long writes (a busy machine): the
/// monitor of an app asks it, and must not take its own saves for another program's lock.
@Suite("Checking an SQLite file's write lock")
struct WriteLockCheckTests {
    /// A store file holding one tag, and a second coordinator on it, as another part of the
    /// same process opens it.
    private static func twoCoordinators() throws -> (url: URL, first: TestStack, second: PersistentStoreCoordinator) {
        let stack = try TestStack()
        let url = try #require(stack.url)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            Tag(context: context).name = "quad"
            try context.save()
        }
        let second = PersistentStoreCoordinator(managedObjectModel: SPoTModel.make())
        try second.addPersistentStore(type: .sqlite, at: url)
        return (url, stack, second)
    }

    private static func sqliteStore(_ coordinator: PersistentStoreCoordinator) throws -> SQLiteStore {
        try #require(coordinator.store as? SQLiteStore)
    }

    @Test func aFreeLockPassesAndTheCheckWritesNothing() throws {
        let (url, stack, second) = try Self.twoCoordinators()
        let before = try Data(contentsOf: url)
        try second.checkWriteLock(patience: .milliseconds(200))
        try stack.container.persistentStoreCoordinator.checkWriteLock(patience: .milliseconds(200))
        // Nothing was written: a fresh context reads the same, and the main file is unchanged.
        let context = stack.container.newBackgroundContext()
        #expect(try context.performAndWait { try context.fetch(Tag.fetchRequest()).map(\.name) } == ["quad"])
        #expect(try Data(contentsOf: url) == before)
    }

    @Test func thisProcessesOwnWriteHoldingTheLockIsNotAnotherProgram() throws {
        let (_, stack, second) = try Self.twoCoordinators()
        let first = try Self.sqliteStore(stack.container.persistentStoreCoordinator)
        // A write transaction of this process holds SQLite's lock while both coordinators check:
        // the one writing and the other one on the same file.
        try first.writeTransaction { db in
            try db.execute(sql: "UPDATE ZTAG SET ZNAME = 'main quad'")
            try stack.container.persistentStoreCoordinator.checkWriteLock(patience: .milliseconds(200))
            try second.checkWriteLock(patience: .milliseconds(200))
        }
        // And the lock is free again for the check's own try once the write committed.
        try second.checkWriteLock(patience: .milliseconds(200))
        let context = ManagedObjectContext(concurrencyType: .privateQueueConcurrencyType)
        let names = try context.performAndWait {
            context.persistentStoreCoordinator = second
            return try context.fetch(Tag.fetchRequest()).map(\.name)
        }
        #expect(names == ["main quad"])
    }

    @Test func anotherConnectionHoldingTheLockIsReportedAsSQLiteBusyNamingTheFile() throws {
        let (url, stack, second) = try Self.twoCoordinators()
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let other = try DatabaseQueue(path: url.path, configuration: configuration)
        try other.writeWithoutTransaction { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        for coordinator in [stack.container.persistentStoreCoordinator, second] {
            let error = try #require(throws: ObjectGraphError.self) { try coordinator.checkWriteLock(patience: .milliseconds(300)) }
            #expect(error.cause?.resultCode == 5, "SQLITE_BUSY: \(error)")
            #expect(error.cause?.file == url.path)
            #expect(error.cause?.message.contains("locked by another program") == true, "\(error)")
            #expect(error.cause?.message.contains("0.3 s") == true, "it says how long it waited: \(error)")
            #expect(error.description.contains(url.path), "\(error)")
        }
        // Reads go on meanwhile (WAL), and the lock's end ends the refusal.
        let context = stack.container.newBackgroundContext()
        #expect(try context.performAndWait { try context.fetch(Tag.fetchRequest()).count } == 1)
        try other.writeWithoutTransaction { db in try db.execute(sql: "ROLLBACK") }
        try second.checkWriteLock(patience: .milliseconds(300))
    }

    @Test func aStoreInMemoryHasNoLockToCheck() throws {
        let coordinator = PersistentStoreCoordinator(managedObjectModel: SPoTModel.make())
        try coordinator.addPersistentStore(type: .inMemory, at: nil)
        try coordinator.checkWriteLock(patience: .milliseconds(1))
        let empty = PersistentStoreCoordinator(managedObjectModel: SPoTModel.make())
        let error = try #require(throws: ObjectGraphError.self) { try empty.checkWriteLock() }
        #expect(error.message.contains("No persistent store"))
    }
}
