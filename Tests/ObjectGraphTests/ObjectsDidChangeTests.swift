import Foundation
import Synchronization
import Testing

@testable import ObjectGraph

/// What a context reports of its own changes, as Core Data's objects-did-change: each insert
/// once, in the first notification after it; later changes to it as updates.
@Suite("Objects-did-change for a context's own changes")
struct ObjectsDidChangeTests {
    @Test("inserts are reported once; a later change of one is an update; an insert deleted before the notification is in no set")
    func insertsThenUpdates() throws {
        let stack = try TestStack()
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var reports: [ObjectsDidChange] = []
            let observation = context.addObjectsDidChangeObserver { reports.append($0) }
            defer { observation.cancel() }
            let kept = (0..<3).map { number in
                let photo = Photo(context: context)
                photo.unique = "kept \(number)"
                return photo
            }
            let dropped = Photo(context: context)
            dropped.unique = "dropped"
            context.delete(dropped)
            context.processPendingChanges()
            try #require(reports.count == 1)
            #expect(reports[0].insertedObjects == Set(kept))
            #expect(reports[0].updatedObjects.isEmpty && reports[0].deletedObjects.isEmpty)

            kept[1].title = "Retitled"
            context.processPendingChanges()
            try #require(reports.count == 2)
            #expect(reports[1].insertedObjects.isEmpty)
            #expect(reports[1].updatedObjects == [kept[1]])

            try context.save()
            #expect(try context.count(for: Photo.fetchRequest()) == 3)
        }
    }

    @Test("the inserts of a 10,000-object import arrive in one notification, through an observer and NotificationCenter alike")
    func largeImportIsReportedWhole() throws {
        let stack = try TestStack()
        let context = stack.container.newBackgroundContext()
        let reported = ReportedCounts()
        let viaCenter = NotificationCenter.default.addObserver(forName: .managedObjectContextObjectsDidChange, object: context, queue: nil) {
            notification in
            let change = notification.userInfo?[ManagedObjectContext.objectsDidChangeKey] as? ObjectsDidChange
            reported.record(change?.insertedObjects.count ?? -1)
        }
        defer { NotificationCenter.default.removeObserver(viaCenter) }
        try context.performAndWait {
            var inserted: [Set<ManagedObject>] = []
            let observation = context.addObjectsDidChangeObserver { inserted.append($0.insertedObjects) }
            defer { observation.cancel() }
            let photos = (0..<10_000).map { number in
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                return photo
            }
            try context.save()
            #expect(inserted.count == 1)
            #expect(inserted.first == Set(photos))
        }
        #expect(reported.counts == [10_000])
    }
}

/// The insert counts a NotificationCenter observer saw, from whatever thread posted.
private final class ReportedCounts: Sendable {
    private let storage = Mutex<[Int]>([])

    func record(_ count: Int) { storage.withLock { $0.append(count) } }
    var counts: [Int] { storage.withLock { $0 } }
}
