import Flickr
import Foundation
import ObjectGraph
import Testing

@testable import SPoTKit

@Suite("Live lists: what opening one costs, and losing track of the database")
struct LiveListQueryTests {
    /// `count` photos, each by a photographer of their own, at spot "hoover".
    private static func photos(_ count: Int) -> [FlickrPhoto] {
        (0..<count).map { number in
            FlickrPhoto(
                id: "\(number)",
                owner: "owner\(number)",
                secret: "s",
                server: "1",
                title: "Photo \(number)",
                ownerName: "Owner \(number)",
                tags: ["cs193pspot", "hoover"]
            )
        }
    }

    /// The SELECTs opening each list runs, by list, in a store of `count` photos.
    private static func queriesOpeningLists(photoCount count: Int) async throws -> [String: [String]] {
        let log = StatementLog()
        let store = try SPoTStore(url: nil, statementObserver: log.observer)
        _ = try await store.importer.importPage(photos(count))
        for number in 0..<min(count, SPoTModel.maxRecents) {
            try await store.markViewed("\(number)", at: Date(timeIntervalSince1970: Double(number)))
        }
        await store.waitForLiveLists()
        var queries: [String: [String]] = [:]
        for id in [ListID.spot("hoover"), .spot("all"), .photographer("owner1"), .search("photo"), .recents, .photographers, .spots] {
            log.reset()
            let list = try await store.list(id)
            #expect(Self.rowCount(list) > 0, "\(id)")
            queries[id.address] = log.selects
            await list.close()
        }
        return queries
    }

    private static func rowCount(_ list: some LiveListProtocol) -> Int { list.current.rows.count }

    @Test func aListsFirstFetchRunsTheSameQueriesForTenAndFiveHundredPhotos() async throws {
        let few = try await Self.queriesOpeningLists(photoCount: 10)
        let many = try await Self.queriesOpeningLists(photoCount: 500)
        for (list, queries) in few.sorted(by: { $0.key < $1.key }) {
            let more = many[list] ?? []
            let listing = more.joined(separator: "\n")
            #expect(queries.count == more.count, "\(list): \(queries.count) queries for 10 photos, \(more.count) for 500:\n\(listing)")
            // The rows' photographer comes with the photos, not one fault at a time.
            #expect(more.count <= 6, "\(list): \(more.joined(separator: "\n"))")
        }
    }

    /// A source that fetches like a fetched results controller, and can be made to lose track
    /// and to fail to fetch again.
    private final class FlakySource: LiveListSource, @unchecked Sendable {
        // @unchecked Sendable: touched only on the list context's queue, as every source is.
        var rows = [SpotRow(id: "a", name: "A", photoCount: 1)]
        var failuresLeft = 0
        var lost: ((any Error) -> Void)?

        func start(publish: @escaping (inout LiveChangeSet<SpotRow>) -> Void, lost: @escaping (any Error) -> Void) throws {
            self.lost = lost
        }

        func refetch() throws {
            if failuresLeft > 0 {
                failuresLeft -= 1
                throw LiveListError("the database is locked")
            }
        }

        func sections() -> [LiveSection<SpotRow>] { [LiveSection(name: "", indexTitle: "", rows: rows)] }
        func stop() { lost = nil }
    }

    @Test func aListThatCannotFetchAgainSaysSoAndRecovers() async throws {
        let store = try SPoTStore(url: nil)
        let source = FlakySource()
        let info = ListInfo(id: .spots, title: "Spots", emptyText: "")
        let list = try await LiveList<SpotRow>(
            info: info,
            context: store.listContext,
            retryDelay: { _ in .zero },
            makeSources: { [source] in [source] }
        )
        let (snapshot, changes) = await list.subscribe()
        #expect(snapshot.problem == nil)
        var iterator = changes.makeAsyncIterator()
        await store.listContext.perform {
            source.failuresLeft = 2
            source.rows.append(SpotRow(id: "b", name: "B", photoCount: 2))
            source.lost?(LiveListError("a change could not be placed"))
        }
        for attempt in 1...2 {
            let failed = try #require(await iterator.next())
            #expect(failed.version == snapshot.version + attempt)
            #expect(failed.problem?.contains("the database is locked") == true, "\(failed)")
            #expect(failed.reload == nil)
        }
        let recovered = try #require(await iterator.next())
        #expect(recovered.problem == nil)
        #expect(recovered.reload?.flatMap(\.rows).map(\.id) == ["a", "b"])
        #expect(list.current.problem == nil)
        #expect(list.current.rows.map(\.id) == ["a", "b"])
        await list.close()
    }
}
