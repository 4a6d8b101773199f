import FlickrSandbox
import Foundation
import ObjectGraph
import TestSupport
import Testing

@testable import SPoTKit

/// Several processes on one data directory, as people use SPoT: `spot` commands in a terminal
/// beside one another and beside an open store.
@Suite("Several processes on one store", .serialized, .timeLimit(.minutes(10)))
struct SpotProcessesTests {
    let catalogue = SandboxCatalogue.stanford.spotPhotos(atEpoch: 0)

    @Test func threeRefreshesAtOnceCreateNoDuplicatesAndLeaveEveryCountRight() async throws {
        try await SPoTFixture.run { fixture in
            let directory = fixture.directory
            // Two terminals and this process refresh the same empty store at the same moment.
            let children = (0..<2).map { _ in
                Task.detached { try await SpotCommand.run(["refresh", "--format", "tsv", "--data-dir", directory.url.path]) }
            }
            let spot = try fixture.open()
            let status = await spot.refresher.refresh()
            #expect(status.lastError == nil, "\(String(describing: status.lastError))")
            for child in children {
                let output = try await child.value
                #expect(output.status == 0, "\(output.stderr)")
            }
            let store = spot.store
            let counts = try await store.counts()
            #expect(counts.photos == catalogue.count)
            let check = try await store.read { context in
                let photos = try context.fetch(Photo.fetchRequest())
                let tags = try context.fetch(Tag.fetchRequest())
                let photographers = try context.fetch(Photographer.fetchRequest())
                var problems: [String] = []
                if Set(photos.compactMap(\.unique)).count != photos.count { problems.append("duplicate photos") }
                if Set(tags.compactMap(\.name)).count != tags.count { problems.append("duplicate tags") }
                if Set(photographers.compactMap(\.userID)).count != photographers.count { problems.append("duplicate photographers") }
                for tag in tags {
                    let visible = tag.photos.filter { !$0.hidden }.count
                    if tag.photoCount != Int64(visible) {
                        problems.append("\(tag.name ?? "?") counts \(tag.photoCount), has \(visible)")
                    }
                }
                for photographer in photographers where photographer.photoCount != Int64(photographer.photos.filter { !$0.hidden }.count) {
                    problems.append("photographer \(photographer.userID ?? "?") counts \(photographer.photoCount)")
                }
                return problems
            }
            #expect(check.isEmpty, "\(check)")
            await spot.close()
        }
    }

    @Test func listsOpenInOneProcessFollowAnotherProcessesHide() async throws {
        try await SPoTFixture.run { fixture in
            let directory = fixture.directory
            let spot = try fixture.open()
            await spot.refresher.refresh()
            let store = spot.store
            let list = try await store.photoList(spot: "hoovertower")
            let spots = try await store.spotList()
            let (snapshot, changes) = await list.subscribe()
            let victim = try #require(snapshot.rows.first?.id)
            var iterator = changes.makeAsyncIterator()

            let hide = try await Task.detached { try await SpotCommand.run(["hide", victim, "--data-dir", directory.url.path]) }.value
            #expect(hide.status == 0, "\(hide.stderr)")
            let change = try #require(await iterator.next())
            let after = try change.apply(to: snapshot.sections)
            #expect(after.flatMap(\.rows).map(\.id) == snapshot.rows.map(\.id).filter { $0 != victim })
            // Every list agrees with the others and with a fresh read.
            await store.waitForLiveLists()
            let count = await spots.snapshot().rows.first { $0.id == "hoovertower" }?.photoCount
            #expect(count == snapshot.rows.count - 1)
            let fresh = try await store.photoList(spot: "hoovertower")
            #expect(await fresh.snapshot().rows.map(\.id) == after.flatMap(\.rows).map(\.id))
            await fresh.close()
            await list.close()
            await spots.close()
            await spot.close()
        }
    }

    @Test func followPrintsEachChangeAnotherProcessMakes() async throws {
        try await TemporaryDirectory.with { directory in
            let refresh = try await SpotCommand.run(["refresh", "--format", "tsv", "--data-dir", directory.url.path])
            #expect(refresh.status == 0)
            let hoover = catalogue.filter { $0.hasTag("hoovertower") }
            let follower = try FollowingCommand(["photos", "--tag", "hoovertower", "--follow", "--format", "tsv", "--data-dir", directory.url.path])
            defer { follower.stop() }
            var listed: [String] = []
            while listed.count < hoover.count, let line = await follower.nextLine() { listed.append(line) }
            #expect(Set(listed.map { String($0.split(separator: "\t")[1]) }) == Set(hoover.map(\.id)))
            let victim = try #require(listed.last?.split(separator: "\t").map(String.init))

            let hide = try await Task.detached { try await SpotCommand.run(["hide", victim[1], "--data-dir", directory.url.path]) }.value
            #expect(hide.status == 0, "\(hide.stderr)")
            // The last row: the last row of the last section.
            let sections = listed.map { String($0.split(separator: "\t")[0]) }
            let position = "\(Set(sections).count - 1).\(sections.filter { $0 == victim[0] }.count - 1)"
            let deleted = try #require(await follower.nextLine())
            #expect(deleted == "- \(position)\t" + victim.joined(separator: "\t"))

            let unhide = try await Task.detached { try await SpotCommand.run(["unhide", victim[1], "--data-dir", directory.url.path]) }.value
            #expect(unhide.status == 0, "\(unhide.stderr)")
            let inserted = try #require(await follower.nextLine())
            #expect(inserted == "+ \(position)\t" + victim.joined(separator: "\t"))
        }
    }
}

/// A `spot … --follow` child whose standard output is read line by line as it prints.
final class FollowingCommand: @unchecked Sendable {
    // @unchecked Sendable: the process is used by one test; lines arrive through the stream.
    private let process = Process()
    private var iterator: AsyncStream<String>.Iterator

    init(_ arguments: [String]) throws {
        process.executableURL = SpotCommand.executable
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["FLICKR_API_KEY"] = nil
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let (lines, continuation) = AsyncStream<String>.makeStream()
        iterator = lines.makeAsyncIterator()
        let buffer = LineBuffer()
        output.fileHandleForReading.readabilityHandler = { handle in
            let data = handle.availableData
            guard !data.isEmpty else {
                handle.readabilityHandler = nil
                continuation.finish()
                return
            }
            for line in buffer.append(data) { continuation.yield(line) }
        }
        try process.run()
    }

    /// The next line printed; `nil` when the command exited.
    func nextLine() async -> String? {
        await iterator.next()
    }

    /// Interrupts the command as Ctrl-C does, and waits for it.
    func stop() {
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
    }
}

/// Bytes in, complete lines out.
private final class LineBuffer: @unchecked Sendable {
    // @unchecked Sendable: `data` is guarded by `lock`.
    private let lock = NSLock()
    private var data = Data()

    func append(_ more: Data) -> [String] {
        lock.withLock {
            data.append(more)
            var lines: [String] = []
            while let newline = data.firstIndex(of: UInt8(ascii: "\n")) {
                lines.append(String(decoding: data[data.startIndex..<newline], as: UTF8.self))
                data.removeSubrange(data.startIndex...newline)
            }
            return lines
        }
    }
}
