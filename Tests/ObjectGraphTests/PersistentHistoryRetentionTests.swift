import Foundation
import ObjectGraph
import TestSupport
import Testing

/// The retention options (`persistentHistoryMaximumCountOption`, `…MaximumAgeOption`) prune
/// history as saves go on, on every store that records it: SPoT's instances on one PostgreSQL
/// database would otherwise grow its history for ever.
@Suite("Persistent history retention")
struct PersistentHistoryRetentionTests {
    /// A container on a new store of `kind` that tracks history and keeps what `options` say.
    static func container(_ kind: StoreKind, options: [String: any Sendable]) throws -> PersistentContainer {
        let description = try kind.newDescription()
        description.setOption(true, forKey: PersistentStore.persistentHistoryTrackingOption)
        for (key, value) in options { description.setOption(value, forKey: key) }
        return try TestStack(description: description).container
    }

    static func insertPhoto(_ unique: String, in container: PersistentContainer) throws {
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = unique
            try context.save()
        }
    }

    static func allHistory(in container: PersistentContainer) throws -> [PersistentHistoryTransaction] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let result = try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: nil as PersistentHistoryToken?))
            return try #require((result as? PersistentHistoryResult)?.result as? [PersistentHistoryTransaction])
        }
    }

    @Test("by count: saves keep the newest transactions; a reader behind them is told its token expired", arguments: StoreKind.migrating)
    func byCount(_ kind: StoreKind) throws {
        let container = try Self.container(kind, options: [PersistentStore.persistentHistoryMaximumCountOption: 4])
        try Self.insertPhoto("first", in: container)
        let first = try #require(container.persistentStoreCoordinator.currentPersistentHistoryToken())
        for index in 0..<40 { try Self.insertPhoto("photo \(index)", in: container) }
        let kept = try Self.allHistory(in: container)
        // Pruned every 16 transactions down to 4: at most 4 + 15 remain, the newest among them.
        #expect(kept.count >= 4 && kept.count < 4 + 16, "\(kept.count) transactions kept")
        #expect(kept.last?.token == container.persistentStoreCoordinator.currentPersistentHistoryToken())
        let numbers = kept.map(\.transactionNumber)
        #expect(numbers == numbers.sorted() && Set(numbers).count == numbers.count)
        let context = container.newBackgroundContext()
        let error = try context.performAndWait {
            try #require(throws: ObjectGraphError.self) { try context.execute(PersistentHistoryChangeRequest.fetchHistory(after: first)) }
        }
        #expect(error.code == .persistentHistoryTokenExpired)
        // Every photo is still there: only history is pruned.
        let photos = try context.performAndWait { try context.count(for: Photo.fetchRequest()) }
        #expect(photos == 41)
    }

    @Test("by age: transactions older than the maximum age go as later saves are recorded", arguments: StoreKind.migrating)
    func byAge(_ kind: StoreKind) throws {
        // An age no transaction can be younger than once recorded: each pruning save deletes
        // every transaction before its own.
        // The pruning save (every 16th) keeps its own transaction, however old it is by then:
        // the newest transaction is what the current token names.
        let container = try Self.container(kind, options: [PersistentStore.persistentHistoryMaximumAgeOption: 0.000_001])
        for index in 0..<16 { try Self.insertPhoto("photo \(index)", in: container) }
        let kept = try Self.allHistory(in: container)
        #expect(kept.count == 1, "\(kept.map(\.transactionNumber))")
        #expect(kept.last?.token == container.persistentStoreCoordinator.currentPersistentHistoryToken())
        #expect(kept.last?.transactionNumber == 16)
        // A save that does not prune adds its own to it.
        try Self.insertPhoto("after", in: container)
        let after = try Self.allHistory(in: container)
        #expect(after.map(\.transactionNumber) == [16, 17])
    }

    @Test("large saves (history rows streamed in bulk) are pruned as well", arguments: StoreKind.migrating)
    func largeSaves(_ kind: StoreKind) throws {
        let container = try Self.container(kind, options: [PersistentStore.persistentHistoryMaximumCountOption: 2])
        for save in 0..<20 {
            let context = container.newBackgroundContext()
            try context.performAndWait {
                for index in 0..<70 { Photo(context: context).unique = "\(save)-\(index)" }
                try context.save()
            }
        }
        let kept = try Self.allHistory(in: container)
        #expect(kept.count >= 2 && kept.count < 2 + 16, "\(kept.count) transactions kept")
        #expect(kept.allSatisfy { ($0.changes ?? []).count == 70 })
    }

    @Test("without retention options every transaction is kept", arguments: StoreKind.migrating)
    func keepsAll(_ kind: StoreKind) throws {
        let container = try Self.container(kind, options: [:])
        for index in 0..<40 { try Self.insertPhoto("photo \(index)", in: container) }
        #expect(try Self.allHistory(in: container).count == 40)
    }
}
