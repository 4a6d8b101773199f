import ArgumentParser
import Foundation
import ObjectGraph
import ObjectGraphGenerator

/// `objectgraph-gen MODEL --output DIR`: typed ManagedObject classes from an Xcode model.
@main
struct ObjectGraphGen: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "objectgraph-gen",
        abstract: "Generate typed ObjectGraph ManagedObject classes from an Xcode data model.",
        discussion: """
            For each entity, writes _Entity.swift (its @Managed properties; rewritten on every run) \
            and Entity.swift (the class you edit; written only when missing), plus ModelNameModel.swift, \
            which builds the model in Swift with every entity bound to its class.
            """
    )

    @Argument(help: "The .xcdatamodeld or .xcdatamodel folder.")
    var model: String

    @Option(name: .shortAndLong, help: "The folder to write the Swift files into.")
    var output: String

    @Option(help: "The model version to generate from (default: the current version).")
    var modelVersion: String?

    @Option(help: "The access level of generated declarations: internal or public.")
    var access: String = "internal"

    @Flag(help: "Print nothing but errors.")
    var quiet = false

    func validate() throws {
        guard ModelCodeGenerator.AccessLevel(rawValue: access) != nil else {
            throw ValidationError("--access must be internal or public, not '\(access)'")
        }
    }

    func run() throws {
        let modelURL = URL(fileURLWithPath: model)
        var generator = try ModelCodeGenerator(contentsOf: modelURL, versionName: modelVersion)
        generator.accessLevel = ModelCodeGenerator.AccessLevel(rawValue: access) ?? .internal
        if let report = generator.model.importReport, !report.isEmpty, !quiet {
            for entry in report.entries { printError("note: \(entry)") }
        }
        let result = try generator.write(to: URL(fileURLWithPath: output))
        if quiet { return }
        for name in result.written { print("wrote \(name)") }
        for name in result.kept { print("kept \(name) (yours: never rewritten)") }
    }

    private func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
