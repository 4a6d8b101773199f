import Foundation
import Testing

@testable import ObjectGraph

/// `relationshipKeyPathsForPrefetching`, proved by the SQL it runs: one query per key path
/// step instead of one per object, and nothing more when the relationships are walked.
@Suite("Prefetching relationships")
struct PrefetchingTests {
    /// 30 photos, each with 3 of 6 tags and one of 4 photographers.
    private static func seed(_ stack: SQLRecordingStack) throws {
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let tags = (0..<6).map { number in
                let tag = Tag(context: context)
                tag.name = "tag \(number)"
                return tag
            }
            let photographers = (0..<4).map { number in
                let photographer = Photographer(context: context)
                photographer.name = "photographer \(number)"
                return photographer
            }
            for number in 0..<30 {
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.title = "Photo \(number)"
                photo.tags = Set((0..<3).map { tags[(number + $0) % 6] })
                photo.photographer = photographers[number % 4]
            }
            try context.save()
        }
    }

    /// Every photo's title with its sorted tag names and photographer's name.
    private static func walk(_ photos: [Photo]) -> [String] {
        photos.map { photo in
            let tags = photo.tags.compactMap(\.name).sorted().joined(separator: ",")
            return "\(photo.title ?? "") [\(tags)] \(photo.photographer?.name ?? "-")"
        }
    }

    private static func request(prefetching keyPaths: [String]?) -> FetchRequest<Photo> {
        let request = Photo.fetchRequest()
        request.sortDescriptors = [FetchSortDescriptor(key: "unique", ascending: true)]
        request.relationshipKeyPathsForPrefetching = keyPaths
        return request
    }

    /// The statements that read data (GRDB checks the schema version before reusing statements).
    private static func reads(_ statements: [String]) -> [String] {
        statements.touchingData
    }

    @Test("a to-many and a to-one key path cost one query each, and walking them reads nothing")
    func oneQueryPerKeyPath() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            var photos: [Photo] = []
            let fetchStatements = try stack.recording {
                photos = try context.fetch(Self.request(prefetching: ["tags", "photographer"]))
            }
            #expect(photos.count == 30)
            let reads = Self.reads(fetchStatements)
            #expect(reads.count == 4, "the photos, the tag memberships, the tags, the photographers: \(reads)")
            #expect(reads.selects(from: "ZTAG").count == 1, "\(reads)")
            #expect(reads.selects(from: "ZPHOTOGRAPHER").count == 1, "\(reads)")
            var walked: [String] = []
            let walkStatements = stack.recording { walked = Self.walk(photos) }
            #expect(Self.reads(walkStatements).isEmpty, "\(walkStatements)")
            #expect(walked.first == "Photo 0 [tag 0,tag 1,tag 2] photographer 0")
            #expect(walked.count == 30)
        }
        // The same walk without prefetching sees the same graph; the first photo's tags fault
        // reads the other 29 photos' memberships with its own (registered neighbours).
        let plain = stack.container.newBackgroundContext()
        try plain.performAndWait {
            let photos = try plain.fetch(Self.request(prefetching: nil))
            var walked: [String] = []
            let statements = stack.recording { walked = Self.walk(photos) }
            #expect(Self.reads(statements).count <= 3, "memberships once, tags and photographers at most once each: \(statements)")
            let prefetching = stack.container.newBackgroundContext()
            let expected = try prefetching.performAndWait { Self.walk(try prefetching.fetch(Self.request(prefetching: ["tags", "photographer"]))) }
            #expect(walked == expected)
        }
    }

    @Test("a nested key path loads each level with one query per step")
    func nestedKeyPath() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let request = Photographer.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
            request.relationshipKeyPathsForPrefetching = ["photos.tags"]
            var photographers: [Photographer] = []
            let fetchStatements = try stack.recording { photographers = try context.fetch(request) }
            let reads = Self.reads(fetchStatements)
            // Photographers; their photos' keys (one-to-many: a foreign key) and rows; the
            // photos' tag memberships and the tags.
            #expect(reads.count == 5, "\(reads)")
            var counts: [Int] = []
            let walkStatements = stack.recording {
                counts = photographers.map { photographer in photographer.photos.reduce(0) { $0 + $1.tags.count } }
            }
            #expect(Self.reads(walkStatements).isEmpty, "\(walkStatements)")
            #expect(counts == [24, 24, 21, 21], "photographers 0 and 1 have 8 photos, 2 and 3 have 7; 3 tags each")
        }
    }

    @Test("unsaved changes to a relationship survive prefetching")
    func unsavedChangesStay() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let first = try #require(try context.fetch(Self.request(prefetching: nil)).first)
            let extra = Tag(context: context)
            extra.name = "unsaved"
            first.tags = first.tags.union([extra])
            let photos = try context.fetch(Self.request(prefetching: ["tags"]))
            #expect(photos.first === first)
            #expect(Set(first.tags.compactMap(\.name)) == ["tag 0", "tag 1", "tag 2", "unsaved"])
            #expect(photos.last?.tags.count == 3)
        }
    }

    @Test("a key path step that is not a relationship makes the fetch throw, naming it")
    func notARelationship() throws {
        let stack = try SQLRecordingStack()
        try Self.seed(stack)
        let context = stack.container.newBackgroundContext()
        context.performAndWait {
            for keyPath in ["title", "tags.colour"] {
                do {
                    _ = try context.fetch(Self.request(prefetching: [keyPath]))
                    Issue.record("prefetching '\(keyPath)' did not throw")
                } catch {
                    #expect("\(error)".contains("'\(keyPath)'"), "\(error)")
                }
            }
        }
    }
}
