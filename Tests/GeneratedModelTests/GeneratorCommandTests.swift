import Foundation
import Testing

/// Runs the built `objectgraph-gen`, as a user would, with output captured in files.
private func objectgraphGen(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
    let candidates = [
        Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent(),
    ]
    let executable = try #require(
        candidates.map { $0.appendingPathComponent("objectgraph-gen") }.first { FileManager.default.isExecutableFile(atPath: $0.path) },
        "objectgraph-gen is not built next to the tests"
    )
    let folder = try GeneratedSources.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let out = folder.appendingPathComponent("stdout")
    let err = folder.appendingPathComponent("stderr")
    try Data().write(to: out)
    try Data().write(to: err)
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardOutput = try FileHandle(forWritingTo: out)
    process.standardError = try FileHandle(forWritingTo: err)
    try process.run()
    process.waitUntilExit()
    return (process.terminationStatus, try String(contentsOf: out, encoding: .utf8), try String(contentsOf: err, encoding: .utf8))
}

@Suite("objectgraph-gen: the command")
struct GeneratorCommandTests {
    @Test("writes every file, then keeps the human files on a second run")
    func writesThenKeeps() throws {
        let output = try GeneratedSources.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let model = GeneratedSources.fixtures.appendingPathComponent("Media.xcdatamodel").path
        let first = try objectgraphGen([model, "--output", output.path])
        #expect(first.status == 0)
        #expect(first.stderr == "")
        #expect(
            first.stdout == """
                wrote _Album.swift
                wrote Album.swift
                wrote _LivePhoto.swift
                wrote LivePhoto.swift
                wrote _MediaItem.swift
                wrote MediaItem.swift
                wrote _Photo.swift
                wrote Photo.swift
                wrote _Video.swift
                wrote Video.swift
                wrote MediaModel.swift

                """
        )
        let second = try objectgraphGen([model, "-o", output.path, "--access", "public"])
        #expect(second.status == 0)
        #expect(second.stdout.hasPrefix("wrote _Album.swift\nwrote _LivePhoto.swift\n"))
        #expect(second.stdout.hasSuffix("kept Video.swift (yours: never rewritten)\n"))
        let album = try String(contentsOf: output.appendingPathComponent("_Album.swift"), encoding: .utf8)
        #expect(album.contains("public class _Album: ManagedObject {"))
    }

    @Test("notes what the model file holds that ObjectGraph skips, on standard error")
    func notes() throws {
        let output = try GeneratedSources.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: output) }
        let model = GeneratedSources.fixtures.appendingPathComponent("Library.xcdatamodeld").path
        let run = try objectgraphGen([model, "--output", output.path, "--quiet"])
        #expect(run.status == 0)
        #expect(run.stdout == "")
        #expect(run.stderr == "")
        let loud = try objectgraphGen([model, "--output", output.path])
        #expect(loud.stderr.contains("note: Author.recentBooks (line 11): fetched property skipped"))
    }

    @Test("refuses a folder that is not a model, naming it, and a bad access level")
    func refusals() throws {
        let notAModel = GeneratedSources.fixtures.appendingPathComponent("Broken/NotAModel").path
        let run = try objectgraphGen([notAModel, "--output", "/tmp/unused-objectgraph-gen"])
        #expect(run.status != 0)
        #expect(run.stderr.contains("\(notAModel) is not an Xcode model"))
        #expect(!FileManager.default.fileExists(atPath: "/tmp/unused-objectgraph-gen"))
        let access = try objectgraphGen([notAModel, "--output", "/tmp/unused-objectgraph-gen", "--access", "open"])
        #expect(access.status != 0)
        #expect(access.stderr.contains("--access must be internal or public, not 'open'"))
    }
}
