import Foundation
import ObjectGraphData
import Testing

/// FetchDescriptor's loading hints: relationships prefetched with the results.
@Suite("ObjectGraphData FetchDescriptor prefetching")
struct FetchDescriptorTests {
    @Test("relationshipKeyPathsForPrefetching loads the related models with the fetch: walking them runs no query")
    func prefetching() throws {
        let log = StatementLog()
        var configuration = ModelConfiguration(url: TestFiles.url("prefetch.store"))
        configuration.sqlStatementObserver = { log.append($0) }
        let container = try makeContainer(configuration)
        let writer = ModelContext(container)
        let places = (0..<20).map { Place(name: "place \($0)") }
        let tags = (0..<7).map { Tag(name: "tag \($0)") }
        for index in 0..<200 {
            let photo = Photo(title: "photo \(index)")
            photo.place = places[index % places.count]
            photo.tags = [tags[index % tags.count]]
            writer.insert(photo)
        }
        try writer.save()

        let context = ModelContext(container)
        var descriptor = FetchDescriptor<Photo>(sortBy: [SortDescriptor(\.title)])
        descriptor.relationshipKeyPathsForPrefetching = [\.place, \.tags]
        let photos = try context.fetch(descriptor)
        let selectsAfterFetch = log.lines.filter { $0.contains("SELECT") }.count
        let placeNames = Set(photos.compactMap { $0.place?.name })
        let tagNames = Set(photos.flatMap { $0.tags.map(\.name) })
        #expect(placeNames.count == 20)
        #expect(tagNames.count == 7)
        #expect(log.lines.filter { $0.contains("SELECT") }.count == selectsAfterFetch, "\(log.lines.suffix(5))")
    }
}
