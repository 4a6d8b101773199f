import Foundation

/// Raw access to a store in the middle of a custom migration stage: the old version's tables
/// (renamed, read-only by convention) and the new version's (already filled with everything
/// a lightweight migration could infer), in the stage's transaction.
///
/// A handler reads old rows and writes new ones in SQL. Names come from the context, so a
/// handler never spells a table or column itself:
///
/// ```swift
/// .custom(from: "Inventory", to: "Inventory 2") { context in
///     // quantity was a String; it is an Integer 64 now.
///     let new = try context.destinationTable(for: "Item")
///     let old = try context.sourceTable(for: "Item")
///     let newColumn = try context.destinationColumn("quantity", of: "Item")
///     let oldColumn = try context.sourceColumn("quantity", of: "Item")
///     try context.execute("""
///         UPDATE \(new) SET \(newColumn) =
///           (SELECT CAST(o.\(oldColumn) AS INTEGER) FROM \(old) AS o WHERE o.Z_PK + \(try context.keyOffset(for: "Item")) = \(new).Z_PK)
///         """)
/// }
/// ```
///
/// Every row keeps its primary key (`Z_PK`) plus ``keyOffset(for:)``, which is 0 unless the
/// entity's rows moved into a table shared with another entity's rows.
public final class MigrationContext {
    // The stage's connection, behind a protocol: the SQLite store's (GRDB) is the only runner.
    private let database: any MigrationStatementRunner
    private let mapping: MigrationMapping
    private let offsets: MigrationMapping.KeyOffsets

    /// The name of the version migrated from.
    public var sourceVersion: String { mapping.sourceVersion }
    /// The name of the version migrated to.
    public var destinationVersion: String { mapping.destinationVersion }
    /// The model migrated from.
    public var sourceModel: ManagedObjectModel { mapping.oldModel }
    /// The model migrated to.
    public var destinationModel: ManagedObjectModel { mapping.newModel }

    init(database: any MigrationStatementRunner, mapping: MigrationMapping, offsets: MigrationMapping.KeyOffsets) {
        self.database = database
        self.mapping = mapping
        self.offsets = offsets
    }

    /// The table holding the old rows of `entity` (an entity of the source model).
    ///
    /// - Throws: ``ObjectGraphError`` (``ObjectGraphError/Code/entityNotFound``) when the
    ///   source model has no such entity.
    public func sourceTable(for entity: String) throws -> String {
        mapping.oldTable(of: try oldEntity(entity))
    }

    /// The column of `property` of `entity` in the source model's table.
    ///
    /// - Throws: ``ObjectGraphError`` when the source model has no such entity or stored property.
    public func sourceColumn(_ property: String, of entity: String) throws -> String {
        let description = try oldEntity(entity)
        guard let slot = description.slotByName[property], let column = mapping.oldSchema.mappings[entity]?.columns[slot] else {
            throw ObjectGraphError(.unknownKey, "the source model (\(sourceVersion)) stores no property \(entity).\(property)")
        }
        return column
    }

    /// The table the new rows of `entity` (an entity of the destination model) are in.
    ///
    /// - Throws: ``ObjectGraphError`` when the destination model has no such entity.
    public func destinationTable(for entity: String) throws -> String {
        mapping.newTable(of: try newEntity(entity))
    }

    /// The column of `property` of `entity` in the destination model's table.
    ///
    /// - Throws: ``ObjectGraphError`` when the destination model has no such entity or stored property.
    public func destinationColumn(_ property: String, of entity: String) throws -> String {
        let description = try newEntity(entity)
        guard let slot = description.slotByName[property], let column = mapping.newSchema.mappings[entity]?.columns[slot] else {
            throw ObjectGraphError(.unknownKey, "the destination model (\(destinationVersion)) stores no property \(entity).\(property)")
        }
        return column
    }

    /// The `Z_ENT` code of `entity` in the destination model (for rows a handler inserts).
    public func destinationEntityCode(for entity: String) throws -> Int {
        try newEntity(entity).entityCode
    }

    /// What was added to the keys of `entity`'s rows (an entity of the destination model)
    /// when they were copied: a new row's key is the old row's key plus this.
    public func keyOffset(for entity: String) throws -> Int64 {
        let description = try newEntity(entity)
        guard let old = mapping.sources[entity] else { return 0 }
        return offsets.offset(mapping.oldTable(of: old), mapping.newTable(of: description))
    }

    /// Runs one SQL statement; `arguments` bind its `?` placeholders (`Int`, `Int64`,
    /// `Double`, `Bool`, `String`, `Data`, `Date` or `nil`).
    ///
    /// - Throws: ``ObjectGraphError`` with SQLite's message and the statement.
    public func execute(_ sql: String, arguments: [(any Sendable)?] = []) throws {
        try run(sql) { try database.execute(sql, arguments: try Self.arguments(arguments)) }
    }

    /// The rows a query returns, each as its column values: `Int64`, `Double`, `String`,
    /// `Data` or `nil`.
    ///
    /// - Throws: ``ObjectGraphError`` with SQLite's message and the statement.
    public func fetchAll(_ sql: String, arguments: [(any Sendable)?] = []) throws -> [[(any Sendable)?]] {
        try run(sql) {
            try database.fetchAll(sql, arguments: try Self.arguments(arguments)).map { row in
                row.map { value -> (any Sendable)? in
                    switch value {
                    case .null: nil
                    case .integer(let int): int
                    case .real(let double): double
                    case .text(let string): string
                    case .blob(let data): data
                    // Never read back from SQLite (decimals are stored as text); as written.
                    case .decimal(let decimal): decimal.description
                    }
                }
            }
        }
    }

    // MARK: Helpers

    private func oldEntity(_ name: String) throws -> EntityDescription {
        guard let entity = mapping.oldModel.entity(named: name) else {
            throw ObjectGraphError(.entityNotFound, "the source model (\(sourceVersion)) has no entity \(name)")
        }
        return entity
    }

    private func newEntity(_ name: String) throws -> EntityDescription {
        guard let entity = mapping.newModel.entity(named: name) else {
            throw ObjectGraphError(.entityNotFound, "the destination model (\(destinationVersion)) has no entity \(name)")
        }
        return entity
    }

    private func run<T>(_ sql: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw ObjectGraphError(
                .migrationFailed,
                "a statement of the custom migration stage from \(sourceVersion) to \(destinationVersion) failed: \(sql)",
                underlying: error
            )
        }
    }

    private static func arguments(_ values: [(any Sendable)?]) throws -> [SQLValue] {
        try values.map { value -> SQLValue in
            switch value {
            case nil: return .null
            case let int as Int: return .integer(Int64(int))
            case let int as Int64: return .integer(int)
            case let double as Double: return .real(double)
            case let bool as Bool: return .integer(bool ? 1 : 0)
            case let string as String: return .text(string)
            case let data as Data: return .blob(data)
            case let date as Date: return .real(date.timeIntervalSinceReferenceDate)
            case let other?: throw ObjectGraphError(.typeMismatch, "a migration statement cannot bind \(type(of: other)) values")
            }
        }
    }
}

@available(*, unavailable)
extension MigrationContext: Sendable {}
