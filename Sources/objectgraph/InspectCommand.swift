import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph inspect STORE [--model M]`: the store's layout, metadata and entities (number,
/// parent, rows, version hash), and, given a model, whether the model opens it and what differs.
struct InspectCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "inspect",
        abstract: "Show a store's layout, metadata, entities, row counts and model version hashes."
    )

    @Argument(help: "The store file (.sqlite, or any name: the metadata decides), or a PostgreSQL store's postgres://user@host[:port]/database[?schema=name] URL.")
    var store: String

    @Option(help: "An Xcode model (.xcdatamodeld or .xcdatamodel) to compare with the store.")
    var model: String?

    func run() throws {
        let location = try StoreLocation(store)
        guard location.isFile else {
            var lines = try serverStoreLines(location)
            if let model {
                lines.append("")
                lines += try comparison(with: model, writer: "ObjectGraph", versionHashes: [:])
            }
            for line in lines { print(line) }
            return
        }
        let facts = try StoreFacts(path: location.url.path)
        var lines = [
            "store: \(store)",
            "written by: \(facts.writer)",
            "layout: \(facts.layout)",
            "store type: \(facts.storeType)",
            "store UUID: \(facts.uuid)",
        ]
        if !facts.versionIdentifiers.isEmpty { lines.append("model version identifiers: \(facts.versionIdentifiers.joined(separator: ", "))") }
        lines.append("metadata keys: \(facts.metadataKeys.joined(separator: ", "))")
        lines.append("")
        let byNumber = Dictionary(facts.entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        let rows = facts.entities.map { entity in
            [
                entity.name, String(entity.number), byNumber[entity.parent] ?? "", entity.rows.map(String.init) ?? "-",
                facts.versionHashes[entity.name]?.base64EncodedString() ?? "",
            ]
        }
        lines += TextTable.lines(["ENTITY", "Z_ENT", "PARENT", "ROWS", "VERSION HASH"], rows, maxWidth: 60)
        let unnumbered = facts.versionHashes.keys.filter { byNumber.values.contains($0) == false }.sorted()
        for name in unnumbered {
            lines.append("\(name): a version hash but no Z_PRIMARYKEY row (renamed: Z_PRIMARYKEY keeps its old name)")
        }
        if let model {
            lines.append("")
            lines += try comparison(with: model, writer: facts.writer, versionHashes: facts.versionHashes)
        }
        for line in lines { print(line) }
    }

    /// Whether the model at `path` opens the store, as Core Data decides it: equal entity
    /// version hashes; else each entity that differs.
    private func comparison(with path: String, writer: String, versionHashes: [String: Data]) throws -> [String] {
        let managedObjectModel: ManagedObjectModel
        do {
            managedObjectModel = try ManagedObjectModel(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ToolError("\(path): cannot be read as a model (\(error))")
        }
        guard writer == "Core Data" else {
            return ["model \(path): compared by ObjectGraph's own metadata when the store opens (no Core Data version hashes stored)"]
        }
        let mine = managedObjectModel.entityVersionHashesByName
        var differences: [String] = []
        for name in Set(mine.keys).union(versionHashes.keys).sorted() {
            switch (mine[name], versionHashes[name]) {
            case (nil, _?): differences.append("entity \(name) is in the store, not in the model")
            case (_?, nil): differences.append("entity \(name) is in the model, not in the store")
            case (let a?, let b?) where a != b: differences.append("entity \(name) differs (its version hash is not the store's)")
            default: break
            }
        }
        guard !differences.isEmpty else { return ["model \(path): compatible (every entity's version hash is the store's)"] }
        let count = "\(differences.count) difference\(differences.count == 1 ? "" : "s")"
        return ["model \(path): not compatible, \(count):"] + differences.map { "  \($0)" }
    }
}
