import Foundation
import ObjectGraph
import TestSupport
import Testing

/// Thousands of random change sequences against fetched results controllers: after every step
/// the reported changes must turn the previous sections into the new ones (UITableView's
/// rules), and the new ones must equal a fresh fetch.
///
/// `OBJECTGRAPH_FRC_SEQUENCES` sets how many sequences run (default 5,000), `OBJECTGRAPH_FRC_SEED`
/// the first seed; a failure prints the shrunk sequence to paste into the regression tests.
@Suite("Fetched results: random change sequences")
struct FetchedResultsPropertyTests {
    static let sequences = ProcessInfo.processInfo.environment["OBJECTGRAPH_FRC_SEQUENCES"].flatMap(Int.init) ?? 5_000
    static let firstSeed = ProcessInfo.processInfo.environment["OBJECTGRAPH_FRC_SEED"].flatMap(UInt64.init) ?? 1
    static let batches = 16
    static let steps = ProcessInfo.processInfo.environment["OBJECTGRAPH_FRC_STEPS"].flatMap(Int.init) ?? 8

    @Test("every random sequence applies exactly and matches a fresh fetch", arguments: 0..<batches)
    func randomSequences(batch: Int) async throws {
        let perBatch = (Self.sequences + Self.batches - 1) / Self.batches
        // Minutes of computing in all: off the pool the other tests wait on.
        let failure = try await OwnThread.run { () -> String? in
            for offset in 0..<perBatch {
                let index = batch * perBatch + offset
                guard index < Self.sequences else { return nil }
                let scenario = FetchedResultsScenario.random(seed: Self.firstSeed + UInt64(index), steps: Self.steps)
                guard scenario.failure() != nil else { continue }
                let small = scenario.shrunk()
                return "\(small.failure() ?? "?")\nshrunk: \(small)"
            }
            return nil
        }
        if let failure { Issue.record(Comment(rawValue: failure)) }
    }

    /// Sequences that once failed, shrunk.
    static let regressions: [FetchedResultsScenario] = [
        // An unsaved change to an inserted object after its insert was reported.
        FetchedResultsScenario(seed: 88, configuration: 2, initialItems: 5, steps: [.insert(55), .setRank(83, 82)]),
        FetchedResultsScenario(seed: 268, configuration: 0, initialItems: 6, steps: [.insert(42), .setRank(15, 99), .insert(57), .setName(23, 19)]),
        FetchedResultsScenario(seed: 1609, configuration: 2, initialItems: 0, steps: [.insert(27), .setRank(89, 13)]),
        // A background save deletes the owner an unsaved local insert points at.
        FetchedResultsScenario(
            seed: 543,
            configuration: 4,
            initialItems: 6,
            steps: [.insert(58), .background([.insert(6), .deleteOwner(34), .setRank(54, 42)])]
        ),
        FetchedResultsScenario(
            seed: 187,
            configuration: 4,
            initialItems: 6,
            steps: [
                .setOwner(40, 9), .insert(79), .background([.insert(10), .delete(3), .insert(65)]),
                .background([.delete(59), .setOwnerLevel(94, 32)]), .delete(10),
            ]
        ),
        // A background insert links to an owner deleted here, unsaved; the save must not leave
        // the item pointing at a removed row.
        FetchedResultsScenario(seed: 1392, configuration: 4, initialItems: 0, steps: [.deleteOwner(82), .background([.insert(91)]), .save]),
    ]

    @Test("sequences that once failed", arguments: regressions)
    func regression(scenario: FetchedResultsScenario) {
        #expect(scenario.failure() == nil, "\(scenario)")
    }
}
