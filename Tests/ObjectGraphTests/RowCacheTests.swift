import Foundation
import Testing

@testable import ObjectGraph

/// The store's row cache (Core Data's): rows read by ID are shared by every context of the
/// store, and no context is ever served a row older than the file.
@Suite("Row cache")
struct RowCacheTests {
    /// Saves `count` photos titled "Photo N" and returns their IDs.
    private static func seed(_ container: PersistentContainer, count: Int = 5) throws -> [ManagedObjectID] {
        let context = container.newBackgroundContext()
        return try context.performAndWait {
            let photos = (0..<count).map { number in
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.title = "Photo \(number)"
                return photo
            }
            try context.save()
            return photos.map(\.objectID)
        }
    }

    /// The title a new context reads for `id` (filling a fault, which reads by ID).
    private static func title(of id: ManagedObjectID, in container: PersistentContainer) -> String? {
        let context = container.newBackgroundContext()
        return context.performAndWait { (context.object(with: id) as? Photo)?.title }
    }

    @Test("a second context filling the same faults does not go to SQLite")
    func secondContextReadsTheCache() throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack.container)
        let first = stack.recording {
            for id in ids { #expect(Self.title(of: id, in: stack.container)?.hasPrefix("Photo") == true) }
        }
        #expect(first.selects(from: "ZPHOTO").count == ids.count, "the first context reads each row: \(first)")
        let second = stack.recording {
            let context = stack.container.newBackgroundContext()
            let titles = context.performAndWait { ids.map { (context.object(with: $0) as? Photo)?.title } }
            #expect(titles == (0..<ids.count).map { "Photo \($0)" })
        }
        #expect(second.selects(from: "ZPHOTO").isEmpty, "the second context is served from the cache: \(second)")
    }

    @Test("after another context's save, the next read sees the saved values")
    func saveThroughTheStoreIsSeen() throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack.container)
        #expect(Self.title(of: ids[0], in: stack.container) == "Photo 0")
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            (writer.object(with: ids[0]) as? Photo)?.title = "Renamed"
            try writer.save()
        }
        #expect(Self.title(of: ids[0], in: stack.container) == "Renamed")
        #expect(Self.title(of: ids[1], in: stack.container) == "Photo 1")
    }

    @Test("a save by another coordinator on the same file is seen too")
    func otherCoordinatorsSaveIsSeen() throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack.container)
        #expect(Self.title(of: ids[2], in: stack.container) == "Photo 2")
        let other = PersistentContainer(name: "Other", managedObjectModel: stack.container.managedObjectModel)
        other.persistentStoreDescriptions = [PersistentStoreDescription(url: stack.url)]
        var loadError: (any Error)?
        other.loadPersistentStores { _, error in loadError = error }
        if let loadError { throw loadError }
        let writer = other.newBackgroundContext()
        try writer.performAndWait {
            let photo = try #require(try writer.existingObject(with: ids[2]) as? Photo)
            photo.title = "Changed elsewhere"
            try writer.save()
        }
        #expect(Self.title(of: ids[2], in: stack.container) == "Changed elsewhere")
    }

    @Test("a deleted row is not served from the cache")
    func deletedRowIsGone() throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack.container)
        #expect(Self.title(of: ids[3], in: stack.container) == "Photo 3")
        let writer = stack.container.newBackgroundContext()
        try writer.performAndWait {
            writer.delete(writer.object(with: ids[3]))
            try writer.save()
        }
        let reader = stack.container.newBackgroundContext()
        let found = reader.performAndWait { (try? reader.existingObject(with: ids[3])) != nil }
        #expect(!found, "the deleted photo is gone for a new context")
    }

    @Test("concurrent readers and writers: every read after a save returned sees that save")
    func concurrentReadsNeverGoBack() async throws {
        let stack = try SQLRecordingStack()
        let ids = try Self.seed(stack.container, count: 1)
        let container = stack.container
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                let writer = container.newBackgroundContext()
                for round in 1...60 {
                    try writer.performAndWait {
                        (writer.object(with: ids[0]) as? Photo)?.views = Int64(round)
                        try writer.save()
                    }
                    // Every read that starts after the save returned sees at least this round.
                    let seen = Self.views(of: ids[0], in: container)
                    #expect(seen >= Int64(round), "read \(seen) after round \(round) was saved")
                }
            }
            for _ in 0..<2 {
                group.addTask {
                    var last: Int64 = 0
                    for _ in 0..<200 {
                        let seen = Self.views(of: ids[0], in: container)
                        #expect(seen >= last, "a read went back from \(last) to \(seen)")
                        last = seen
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    private static func views(of id: ManagedObjectID, in container: PersistentContainer) -> Int64 {
        let context = container.newBackgroundContext()
        return context.performAndWait { (context.object(with: id) as? Photo)?.views ?? -1 }
    }

    @Test("the cache holds at most its capacity")
    func boundedByCapacity() throws {
        let cache = RowCache(capacity: 10)
        let generation = cache.validate(connection: ObjectIdentifier(cache), dataVersion: 1)
        let scope = ObjectIDScope.interned(storeIdentifier: "cache-test", entityName: "Photo")
        let rows = (1...25).map { StoredRow(id: ManagedObjectID(scope: scope, primaryKey: $0), version: 1, values: []) }
        cache.insert(rows, readAt: generation)
        #expect(cache.count <= 10)
        #expect(cache.rows(for: [rows[24].id])[rows[24].id] != nil, "the newest row is kept")
        cache.removeAll()
        cache.insert(rows, readAt: generation)
        #expect(cache.count == 0, "rows read before a clearing are not cached after it")
    }
}
