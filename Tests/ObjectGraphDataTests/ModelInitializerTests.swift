import Foundation
import ObjectGraphData
import TestSupport
import Testing

/// `@Model` initializers are checked as Swift checks a class's: each persisted property must be
/// set (or have a default; an optional one is `nil` unless set), and the values an initializer
/// sets go into the new model through the properties' init accessors.
@Suite("ObjectGraphData @Model initializers")
struct ModelInitializerTests {
    @Test("A new model holds its initializer's values, its defaults, and nil for optionals it leaves unset, before and after a save")
    func initialValues() throws {
        let container = try makeContainer()
        let photo = Photo(title: "Dawn", views: 4, rating: 4.5)
        #expect(photo.title == "Dawn" && photo.views == 4 && photo.rating == 4.5)
        #expect(photo.caption == nil && photo.taken == nil && photo.place == nil)
        #expect(photo.isFavorite == false && photo.kind == .photo && photo.tags.isEmpty)
        let context = ModelContext(container)
        context.insert(photo)
        try context.save()
        let reader = ModelContext(container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Photo>()).first)
        #expect(stored.title == "Dawn" && stored.views == 4 && stored.rating == 4.5)
        #expect(stored.caption == nil && stored.taken == nil && stored.isFavorite == false && stored.kind == .photo)
    }

    @Test("A new model's property set again and again before insertion holds its last value, read before and after a save")
    func valuesSetAgainBeforeInsertion() throws {
        let container = try makeContainer()
        let photo = Photo(title: "first", views: 1)
        // More sets than a new model keeps room for at first, of typed and general properties.
        for round in 1...40 {
            photo.title = "title \(round)"
            photo.views = round
            photo.kind = round.isMultiple(of: 2) ? .panorama : .video
        }
        photo.caption = "kept"
        photo.caption = nil
        #expect(photo.title == "title 40" && photo.views == 40 && photo.kind == .panorama && photo.caption == nil)
        let context = ModelContext(container)
        context.insert(photo)
        #expect(photo.title == "title 40" && photo.views == 40 && photo.kind == .panorama && photo.caption == nil)
        try context.save()
        let reader = ModelContext(container)
        let stored = try #require(try reader.fetch(FetchDescriptor<Photo>()).first)
        #expect(stored.title == "title 40" && stored.views == 40 && stored.kind == .panorama && stored.caption == nil)
    }

    @Test("An initializer that leaves a persisted property unset does not compile; one that sets it does")
    func definiteInitialization() throws {
        let model = """
            import ObjectGraphData
            @Model final class Note {
                var title: String
                var body: String
                var stars: Int = 0
                var due: Int?
                init(title: String) {
                    self.title = title
                    BODY
                }
            }
            """
        let unset = try Self.compile(model.replacingOccurrences(of: "BODY", with: ""))
        #expect(unset.status != 0)
        #expect(unset.output.contains("return from initializer without initializing all stored properties"))
        #expect(unset.output.contains("'self._$body' not initialized"))
        let set = try Self.compile(model.replacingOccurrences(of: "BODY", with: "self.body = title"))
        #expect(set.status == 0, "\(set.output)")
    }

    /// Compiles `source` to SIL (where definite initialization is checked) against this build's
    /// ObjectGraphData module and `@Model` macro; the compiler's exit status and messages.
    static func compile(_ source: String) throws -> (status: Int32, output: String) {
        let build = ChildExecutable.url(named: "ObjectGraphDataMacros-tool").deletingLastPathComponent()
        let scratch = build.deletingLastPathComponent().deletingLastPathComponent()
        let file = TestFiles.url("Note.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        var arguments = [
            "swiftc", "-emit-sil", "-o", "/dev/null", "-parse-as-library", "-swift-version", "6",
            "-I", build.appendingPathComponent("Modules").path,
            "-load-plugin-executable", build.appendingPathComponent("ObjectGraphDataMacros-tool").path + "#ObjectGraphDataMacros",
        ]
        // The C modules ObjectGraphData's dependencies import, as SwiftPM hands them over.
        var moduleMaps = [scratch.appendingPathComponent("checkouts/GRDB.swift/Sources/GRDBSQLite/module.modulemap")]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? [] where name.hasSuffix(".build") && !name.contains("-tool") {
            for relative in ["module.modulemap", "include/module.modulemap"] {
                let map = build.appendingPathComponent(name).appendingPathComponent(relative)
                if FileManager.default.fileExists(atPath: map.path) { moduleMaps.append(map) }
            }
        }
        for map in moduleMaps { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
        arguments.append(file.path)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
