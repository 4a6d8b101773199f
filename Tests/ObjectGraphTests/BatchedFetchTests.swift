import Foundation
import Testing

@testable import ObjectGraph

/// `fetchBatchSize` and `includesPropertyValues`: fetched objects are faults that fill a batch
/// per query as they are read, proved by the SQL they run.
@Suite("Batched fetches")
struct BatchedFetchTests {
    private static func seed(_ stack: SQLRecordingStack, photos: Int) throws {
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for number in 0..<photos {
                let photo = Photo(context: context)
                photo.unique = String(format: "%04d", number)
                photo.title = "Photo \(number)"
                photo.views = Int64(number)
            }
            try context.save()
        }
    }

    private static func request(batchSize: Int) -> FetchRequest<Photo> {
        let request = Photo.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
        request.fetchBatchSize = batchSize
        return request
    }

    /// The statements that read rows of photos.
    private static func rowReads(_ statements: [String]) -> [String] {
        statements.selects(from: "ZPHOTO").filter { $0.contains("ZTITLE") }
    }

    @Test("the fetch reads IDs only; walking reads one batch per query, in order and at random")
    func oneQueryPerBatch() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack, photos: 250)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var photos: [Photo] = []
            let fetchStatements = try stack.recording { photos = try context.fetch(Self.request(batchSize: 100)) }
            #expect(photos.count == 250)
            #expect(Self.rowReads(fetchStatements).isEmpty, "\(fetchStatements)")
            #expect(photos.allSatisfy { $0.isFault })
            // Random access: the middle of the third batch fills that batch only.
            let jump = stack.recording { #expect(photos[220].title == "Photo 220") }
            #expect(Self.rowReads(jump).count == 1)
            #expect(!photos[200].isFault && !photos[249].isFault)
            #expect(photos[0].isFault && photos[199].isFault)
            var views: Int64 = 0
            let walk = stack.recording { for photo in photos { views += photo.views } }
            #expect(views == (0..<250).reduce(0, +))
            // Batches 0 and 1 are read; reading them turned batch 2 back into faults (two
            // batches stay filled), and it fills again from the store's row cache.
            #expect(Self.rowReads(walk).count == 2, "\(walk)")
            #expect(!photos[249].isFault && photos[0].isFault)
        }
    }

    @Test("batches read longest ago turn back into faults; a changed object keeps its change")
    func oldBatchesBecomeFaults() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack, photos: 500)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photos = try context.fetch(Self.request(batchSize: 100))
            photos[5].title = "Changed"
            for photo in photos { _ = photo.views }
            // Two batches stay filled; the older ones are faults again, their values freed.
            #expect(photos[400..<500].allSatisfy { !$0.isFault })
            #expect(photos[300..<400].allSatisfy { !$0.isFault })
            #expect(photos[0..<300].filter { !$0.isFault }.map(\.objectID) == [photos[5].objectID])
            #expect(photos[5].title == "Changed")
            #expect(photos[6].title == "Photo 6", "a refaulted object reads its values again")
            try context.save()
            let reread = stack.container.newBackgroundContext()
            let titles = try reread.performAndWait { try reread.fetch(Self.request(batchSize: 0)).prefix(7).compactMap(\.title) }
            #expect(titles[5] == "Changed")
        }
    }

    @Test("includesPropertyValues = false returns faults; the first to fire reads its registered neighbours' rows in the same query")
    func withoutPropertyValues() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack, photos: 20)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = Self.request(batchSize: 0)
            request.includesPropertyValues = false
            var photos: [Photo] = []
            let fetch = try stack.recording { photos = try context.fetch(request) }
            #expect(Self.rowReads(fetch).isEmpty)
            #expect(photos.count == 20 && photos.allSatisfy { $0.isFault })
            let read = stack.recording { _ = photos[3].title }
            #expect(Self.rowReads(read).count == 1)
            #expect(photos[3].title == "Photo 3")
            #expect(!photos[4].isFault && !photos[19].isFault)
            let walk = stack.recording { #expect(photos.map(\.title) == (0..<20).map { "Photo \($0)" }) }
            #expect(Self.rowReads(walk).isEmpty)
        }
    }

    @Test("unsaved changes that affect the result are honoured: the batch size then loads the objects")
    func pendingChangesStillCount() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack, photos: 30)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let newcomer = Photo(context: context)
            newcomer.unique = "0000a"
            newcomer.title = "New"
            let photos = try context.fetch(Self.request(batchSize: 10))
            #expect(photos.count == 31)
            #expect(photos[1] === newcomer)
            #expect(photos.map(\.title).compactMap { $0 }.count == 31)
        }
    }
}
