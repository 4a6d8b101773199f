import ArgumentParser
import Foundation
import ObjectGraph

/// `objectgraph query STORE ENTITY [--model M] [--predicate P] [--sort k,-k] [--limit N]
/// [--format table|json|tsv]`: objects of an entity, fetched through ObjectGraph with the full
/// predicate grammar, printed one per line.
struct QueryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Fetch an entity's objects with a predicate, sort and limit, as a table, JSON or TSV.",
        discussion: """
            Columns: pk (the object's primary key), entity (when the entity has subentities), each \
            attribute, and each to-one relationship as Entity/pk of its target. The store opens \
            read-only, with the given model or the one Core Data cached in it (Z_MODELCACHE).
            """
    )

    /// How rows are printed.
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, tsv
    }

    @Argument(help: "The store file, or a PostgreSQL store's postgres://user@host[:port]/database[?schema=name] URL.")
    var store: String

    @Argument(help: "The entity to fetch (its subentities' objects included).")
    var entity: String

    @Option(help: "The model that wrote the store (.xcdatamodeld, .xcdatamodel, .momd or .mom); by default the one the store carries.")
    var model: String?

    @Option(help: "A predicate in NSPredicate's format, e.g. \"name BEGINSWITH[c] 'a' AND cars.@count > 1\".")
    var predicate: String?

    @Option(help: "Sort keys, comma-separated; a leading '-' sorts descending (--sort=-age,lastName: a value starting with '-' needs the '=').")
    var sort: String?

    @Option(help: "At most this many objects.")
    var limit: Int?

    @Option(help: "table (aligned, for people), json or tsv (escaped, for programs).")
    var format: Format = .table

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more, not \(limit)") }
    }

    func run() throws {
        let opened = try OpenedStore(store: StoreLocation(store), model: model)
        let managedObjectModel = opened.model
        guard let description = managedObjectModel.entitiesByName[entity] else {
            let names = managedObjectModel.entities.map(\.name).sorted().joined(separator: ", ")
            throw ToolError("the model has no entity '\(entity)' (it has \(names))")
        }
        let container = opened.container

        let request = FetchRequest<ManagedObject>(entityName: entity)
        if let predicate {
            do {
                request.predicate = try FetchPredicate(parsing: predicate)
            } catch {
                throw ToolError("--predicate: \(error)")
            }
        }
        request.sortDescriptors = try sortDescriptors(for: description)
        if let limit { request.fetchLimit = limit }
        let columns = QueryColumns(entity: description)
        let context = container.newBackgroundContext()
        let rows: [[QueryValue]] = try context.performAndWait {
            try context.fetch(request).map { columns.values(of: $0) }
        }
        switch format {
        case .table:
            let lines = TextTable.lines(columns.names, rows.map { $0.map(\.text) })
            for line in lines { print(line) }
            print("(\(rows.count) object\(rows.count == 1 ? "" : "s"))")
        case .tsv:
            print(TextTable.tsvLine(columns.names))
            for row in rows { print(TextTable.tsvLine(row.map(\.text))) }
        case .json:
            let objects = rows.map { row in
                Dictionary(uniqueKeysWithValues: zip(columns.names, row.map(\.json)))
            }
            let data = try JSONSerialization.data(withJSONObject: objects, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        }
    }

    /// `--sort`'s keys as sort descriptors, each checked against the entity's properties.
    private func sortDescriptors(for entity: EntityDescription) throws -> [FetchSortDescriptor] {
        guard let sort else { return [] }
        return try sort.split(separator: ",").map { part in
            let descending = part.hasPrefix("-")
            let key = String(descending ? part.dropFirst() : part).trimmingCharacters(in: .whitespaces)
            let root = key.split(separator: ".").first.map(String.init) ?? key
            guard entity.propertiesByName[root] != nil else {
                throw ToolError("--sort: \(entity.name) has no property '\(root)'")
            }
            return FetchSortDescriptor(key: key, ascending: !descending)
        }
    }
}
