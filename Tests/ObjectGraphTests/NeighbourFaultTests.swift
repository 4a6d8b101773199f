import Foundation
import Testing

@testable import ObjectGraph

/// A fault that fires reads, in the same query, for its registered neighbours (objects of its
/// entity with nearby keys) that would each need a read of their own: walking a fetched list
/// without prefetching costs a query per hundred objects instead of one per object, on every
/// store, while what each object shows stays what the store and the context's own unsaved
/// changes say.
@Suite("Faults read with their registered neighbours")
struct NeighbourFaultTests {
    /// `count` photos (keys in order), each with 3 of 6 tags.
    private static func seed(_ context: ManagedObjectContext, photos count: Int) throws {
        try context.performAndWait {
            let tags = (0..<6).map { number in
                let tag = Tag(context: context)
                tag.name = "tag \(number)"
                return tag
            }
            for number in 0..<count {
                let photo = Photo(context: context)
                photo.unique = String(format: "%04d", number)
                photo.title = "Photo \(number)"
                photo.tags = Set((0..<3).map { tags[(number + $0) % 6] })
            }
            try context.save()
        }
    }

    private static func request(prefetching keyPaths: [String]? = nil) -> FetchRequest<Photo> {
        let request = Photo.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
        request.relationshipKeyPathsForPrefetching = keyPaths
        return request
    }

    /// Each photo's title with its sorted tag names.
    private static func walk(_ photos: [Photo]) -> [String] {
        photos.map { photo in "\(photo.title ?? "") [\(photo.tags.compactMap(\.name).sorted().joined(separator: ","))]" }
    }

    @Test("walking 250 photos' tags without prefetching reads the memberships 100 photos at a time")
    func walkReadsInHundreds() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack.container.newBackgroundContext(), photos: 250)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photos = try context.fetch(Self.request())
            var walked: [String] = []
            let statements = stack.recording { walked = Self.walk(photos) }
            let reads = statements.touchingData
            let memberships = reads.filter { $0.contains(" JOIN ") }
            #expect(memberships.count == 3, "100 photos' memberships a query: \(memberships.map { $0.prefix(60) })")
            // Tags register as photos reveal them (3 with the first photo, then 1 a photo): each
            // read fills the ones registered by then.
            #expect(reads.count - memberships.count <= 4, "\(reads)")
            let prefetching = stack.container.newBackgroundContext()
            let expected = try prefetching.performAndWait { Self.walk(try prefetching.fetch(Self.request(prefetching: ["tags"]))) }
            #expect(walked == expected)
            #expect(walked[7] == "Photo 7 [tag 1,tag 2,tag 3]")
        }
    }

    @Test("fetched faults whose rows went stale with a save elsewhere fill 100 at a time, with the saved values")
    func staleFetchedRows() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack.container.newBackgroundContext(), photos: 150)
        let context = stack.container.newBackgroundContext()
        let other = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photos = try context.fetch(Self.request())
            #expect(photos.allSatisfy { $0.isFault }, "fetched as faults holding their rows")
            try other.performAndWait {
                let renamed = try other.existingObject(with: photos[120].objectID) as! Photo
                renamed.title = "Renamed"
                try other.save()
            }
            var titles: [String?] = []
            let reads = stack.recording { titles = photos.map(\.title) }.touchingData
            #expect(reads.selects(from: "ZPHOTO").count == 2, "\(reads.map { $0.prefix(60) })")
            #expect(titles[120] == "Renamed" && titles[0] == "Photo 0" && titles[149] == "Photo 149")
        }
    }

    @Test("a neighbour's unsaved relationship changes stay on top of the members read for it", arguments: StoreKind.allCases)
    func unsavedChangesStay(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try Self.seed(stack.container.newBackgroundContext(), photos: 10)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photos = try context.fetch(Self.request())
            let extra = Tag(context: context)
            extra.name = "unsaved"
            // Photo 1's tags change without reading them; photo 0's read then reads photo 1's.
            photos[1].mutableSetValue(forKey: "tags").add(extra)
            #expect(Set(photos[0].tags.compactMap(\.name)) == ["tag 0", "tag 1", "tag 2"])
            #expect(Set(photos[1].tags.compactMap(\.name)) == ["tag 1", "tag 2", "tag 3", "unsaved"])
            #expect(photos[1].changedValues()["tags"] != nil)
            try context.save()
        }
        let fresh = stack.container.newBackgroundContext()
        try fresh.performAndWait {
            let photos = try fresh.fetch(Self.request(prefetching: ["tags"]))
            #expect(Set(photos[1].tags.compactMap(\.name)) == ["tag 1", "tag 2", "tag 3", "unsaved"])
            #expect(photos[2].tags.count == 3)
        }
    }

    @Test("attribute faults fill with their registered neighbours; released keys get no object", arguments: StoreKind.allCases)
    func attributeFaults(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try Self.seed(stack.container.newBackgroundContext(), photos: 20)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = Self.request()
            request.includesPropertyValues = false
            // Only the even photos stay registered: the odd ones are released with the array.
            let photos = try context.fetch(request).enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
            #expect(photos.count == 10 && photos.allSatisfy(\.isFault))
            let registered = context.registeredObjects.count
            #expect(photos[0].title == "Photo 0")
            #expect(photos.allSatisfy { !$0.isFault }, "every registered neighbour filled with the first")
            #expect(context.registeredObjects.count == registered, "no object was made for the released keys")
            #expect(photos.map(\.title) == stride(from: 0, to: 20, by: 2).map { "Photo \($0)" })
        }
    }

    @Test("a neighbour deleted in the store meanwhile becomes gone, as its own fault would", arguments: StoreKind.allCases)
    func goneNeighbour(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        try Self.seed(stack.container.newBackgroundContext(), photos: 5)
        let context = stack.container.newBackgroundContext()
        let other = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = Self.request()
            request.includesPropertyValues = false
            let photos = try context.fetch(request)
            try other.performAndWait {
                other.delete(try other.existingObject(with: photos[2].objectID))
                try other.save()
            }
            #expect(photos[0].title == "Photo 0")
            #expect(photos[3].title == "Photo 3" && !photos[3].isFault)
            #expect(throws: ObjectGraphError.self) { try context.existingObject(with: photos[2].objectID) }
        }
    }
}
