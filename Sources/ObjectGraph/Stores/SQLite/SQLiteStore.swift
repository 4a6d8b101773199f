import Foundation
import GRDB

/// The SQLite store: a GRDB `DatabasePool` in WAL mode for a file, a `DatabaseQueue` in memory
/// (same SQL, same semantics).
final class SQLiteStore: ObjectStore, @unchecked Sendable {
    // @unchecked Sendable: the GRDB writer is thread-safe; key ranges and the fault injection
    // are lock-protected boxes; `identifier` and `metadataSummary` are set in init only.

    static let formatVersion = 1

    let managedObjectModel: ManagedObjectModel
    let schema: StoreSchema
    let writer: any DatabaseWriter
    /// The store's file; `nil` in memory. Named in every error the store throws.
    let path: String?
    private(set) var identifier = ""
    private(set) var metadataSummary: [String: String] = [:]

    /// Primary keys reserved per root entity.
    private let keys = Locked(KeyReservations())
    /// How many fetch plans the store has compiled (tests prove plans are reused with it).
    let fetchPlansCompiled = Locked(0)
    /// Per entity: how to read a row of it from a full-table SELECT.
    let readPlans: [String: RowReadPlan]
    /// The same plans with their entity names, indexed by entity code (`Z_ENT`), for row decoding.
    let readPlansByCode: [(String, RowReadPlan)?]
    /// Per root table: the column list every row SELECT uses, in order.
    let tableColumns: [String: [String]]
    /// Per entity: the INSERT of a new row with every stored column, in slot order.
    let insertSQL: [String: (sql: String, columnCount: Int)]
    /// Per entity: for each of its `storedColumnSlots`, how many columns the INSERT writes
    /// (0, 1, or 2 with the destination's entity code), so a save binds without lookups.
    let insertColumnCounts: [String: (slots: [Int], counts: [UInt8])]

    init(
        model: ManagedObjectModel,
        url: URL?,
        readOnly: Bool,
        statementObserver: SQLStatementObserver? = nil,
        busyTimeout: Double = PersistentStore.defaultTimeout
    ) throws {
        managedObjectModel = model
        path = url?.path
        schema = StoreSchema(model: model)
        var configuration = Configuration()
        configuration.readonly = readOnly
        // Another process writing (a server beside a command-line tool) makes writes wait,
        // not fail at once.
        configuration.busyMode = busyTimeout > 0 ? .timeout(busyTimeout) : .immediateError
        configuration.label = "ObjectGraph"
        configuration.prepareDatabase { db in
            SQLiteFunctions.register(on: db)
            if let statementObserver {
                db.trace(options: .statement) { event in
                    if case .statement(let statement) = event { statementObserver(statement.sql) }
                }
            }
        }
        var columns: [String: [String]] = [:]
        for (name, table) in schema.tables { columns[name] = ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name) }
        tableColumns = columns
        // Per entity, once: how to read its rows and how to insert them.
        var plans: [String: RowReadPlan] = [:]
        var inserts: [String: (sql: String, columnCount: Int)] = [:]
        var counts: [String: (slots: [Int], counts: [UInt8])] = [:]
        for entity in model.entities {
            guard let mapping = schema.mappings[entity.name] else { continue }
            plans[entity.name] = RowReadPlan(entity: entity, mapping: mapping, columns: columns[mapping.table]!, model: model)
            var names = ["Z_PK", "Z_ENT", "Z_OPT"]
            let slots = entity.storedColumnSlots
            for slot in slots {
                guard let column = mapping.columns[slot] else { continue }
                names.append(column)
                if let entityColumn = mapping.entityColumns[slot] { names.append(entityColumn) }
            }
            let sql =
                "INSERT INTO \(mapping.table) (\(names.joined(separator: ", "))) VALUES (\(Array(repeating: "?", count: names.count).joined(separator: ", ")))"
            inserts[entity.name] = (sql, names.count)
            counts[entity.name] = (slots, slots.map { mapping.columns[$0] == nil ? 0 : mapping.entityColumns[$0] == nil ? 1 : 2 })
        }
        readPlans = plans
        var byCode: [(String, RowReadPlan)?] = Array(repeating: nil, count: (schema.entityNames.keys.max() ?? 0) + 1)
        for (code, name) in schema.entityNames where code >= 0 {
            if let plan = plans[name] { byCode[code] = (name, plan) }
        }
        readPlansByCode = byCode
        insertSQL = inserts
        insertColumnCounts = counts
        do {
            if let url {
                // Decide on a read-only connection whether this file is ours to open: a refusal
                // must leave the file and its -wal/-shm exactly as they were.
                switch try StoreFileProbe.inspect(url) {
                case .store(let metadata):
                    try metadata.checkWritten(by: ModelSnapshot(model), path: url.path)
                case .noStore where readOnly:
                    throw ObjectGraphError(.persistentStoreOperation, "cannot create a store at \(url.path) read-only")
                case .noStore:
                    break
                }
                writer = try DatabasePool(path: url.path, configuration: configuration)
            } else {
                writer = try DatabaseQueue(configuration: configuration)
            }
            try openOrCreate(readOnly: readOnly, path: url?.path ?? ":memory:")
        } catch let error as ObjectGraphError {
            throw error
        } catch let error as DatabaseError where error.resultCode == .SQLITE_NOTADB || error.resultCode == .SQLITE_CORRUPT {
            throw ObjectGraphError(
                .persistentStoreInvalidType,
                "\(url?.path ?? "the store") is not an SQLite database, or it is damaged",
                underlying: error,
                file: url?.path
            )
        } catch {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not open the store at \(url?.path ?? ":memory:")",
                underlying: error,
                file: url?.path
            )
        }
    }

    // MARK: Metadata

    private func openOrCreate(readOnly: Bool, path: String) throws {
        let snapshot = ModelSnapshot(managedObjectModel)
        let existing: StoreMetadata? = try writer.read { db in
            guard try db.tableExists("Z_METADATA") else {
                let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
                if !tables.isEmpty {
                    throw ObjectGraphError(
                        .persistentStoreInvalidType,
                        "\(path) is an SQLite database but not an ObjectGraph store (it has tables \(tables.prefix(5).joined(separator: ", ")) and no Z_METADATA)"
                    )
                }
                return nil
            }
            guard let plist = try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = ?", arguments: [Self.formatVersion]) else {
                throw ObjectGraphError(.persistentStoreInvalidType, "\(path) has no readable ObjectGraph metadata (format \(Self.formatVersion))")
            }
            return try StoreMetadata.decode(plist, path: path)
        }
        if let existing {
            // Checked already on a read-only connection (for a file); this catches a file
            // changed in between, and the in-memory case.
            try existing.checkWritten(by: snapshot, path: path)
            identifier = existing.storeUUID
            // Indexes do not change the version hash; create any the model gained. Only then
            // write: opening an up-to-date store must not need the write lock, so it opens
            // (and reads) while another connection holds a write transaction.
            let indexStatements = schema.creationSQL(model: managedObjectModel).filter { $0.contains("INDEX") }
            let existingIndexes = try writer.read { db in
                Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'"))
            }
            let missing = indexStatements.filter { statement in
                guard let name = Self.indexName(in: statement) else { return true }
                return !existingIndexes.contains(name)
            }
            if !readOnly && !missing.isEmpty {
                try writer.write { db in
                    for statement in missing { try db.execute(sql: statement) }
                }
            }
        } else {
            if readOnly { throw ObjectGraphError(.persistentStoreOperation, "cannot create a store at \(path) read-only") }
            identifier = UUID().uuidString
            let metadata = StoreMetadata(
                formatVersion: Self.formatVersion,
                storeUUID: identifier,
                modelVersionHash: snapshot.versionHash,
                model: snapshot
            )
            let plist = try JSONEncoder.sortedKeys.encode(metadata)
            try writer.write { db in
                try db.execute(sql: "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID TEXT, Z_PLIST BLOB)")
                try db.execute(
                    sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (?, ?, ?)",
                    arguments: [Self.formatVersion, identifier, plist]
                )
                try db.execute(sql: "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME TEXT, Z_SUPER INTEGER, Z_MAX INTEGER)")
                for entity in managedObjectModel.entities {
                    try db.execute(
                        sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                        arguments: [entity.entityCode, entity.name, entity.superentity?.entityCode ?? 0]
                    )
                }
                for statement in schema.creationSQL(model: managedObjectModel) { try db.execute(sql: statement) }
            }
        }
        metadataSummary = ["storeUUID": identifier, "modelVersionHash": snapshot.versionHash, "formatVersion": String(Self.formatVersion)]
    }

    /// The index a `CREATE [UNIQUE] INDEX IF NOT EXISTS name ON …` statement creates.
    static func indexName(in statement: String) -> String? {
        guard let range = statement.range(of: "IF NOT EXISTS ") else { return nil }
        return statement[range.upperBound...].split(separator: " ", maxSplits: 1).first.map(String.init)
    }

    // MARK: Errors

    /// What a store operation does to the file, for ``failureInjection``.
    enum StoreAccess: Sendable {
        case read, write
    }

    /// Tests' fault injection: called before each read and write; an error it returns is thrown
    /// as SQLite's would be.
    let failureInjection = Locked<(@Sendable (StoreAccess) -> (any Error)?)?>(nil)

    /// Runs `body`, turning any failure into an ``ObjectGraphError`` that says what the store
    /// was doing, with SQLite's code, message and statement and the store's file.
    func storeOperation<T>(_ access: StoreAccess, _ what: @autoclosure () -> String, _ body: () throws -> T) throws -> T {
        do {
            if let injected = failureInjection.withLock({ $0 })?(access) { throw injected }
            return try body()
        } catch let error as ObjectGraphError {
            throw error
        } catch {
            throw ObjectGraphError(
                .persistentStoreOperation,
                "could not \(what()) in the store at \(path ?? ":memory:")",
                underlying: error,
                file: path
            )
        }
    }

    // MARK: Keys

    func newObjectID(for entity: EntityDescription) throws -> ManagedObjectID {
        let root = entity.rootEntity
        // The model's entities live as long as the store: their identities key the ranges.
        let key = ObjectIdentifier(root)
        let primaryKey: Int64 = try keys.withLock { keys in
            if let range = keys.ranges[key], range.next < range.end {
                keys.ranges[key] = (range.next + 1, range.end)
                return range.next
            }
            // Reserve keys in growing ranges, so an import reserves rarely; unused keys are gaps.
            let size = min((keys.reservationSize[key] ?? 8) * 2, 65_536)
            keys.reservationSize[key] = size
            let end: Int64 = try storeOperation(.write, "reserve keys for new \(root.name) objects") {
                try writer.write { db in
                    try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + ? WHERE Z_ENT = ?", arguments: [size, root.entityCode])
                    return try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [root.entityCode]) ?? size
                }
            }
            let start = end - size + 1
            keys.ranges[key] = (start + 1, end + 1)
            return start
        }
        return ManagedObjectID(storeIdentifier: identifier, entityName: entity.name, primaryKey: primaryKey)
    }
}

/// Primary keys reserved from `Z_PRIMARYKEY`, per root entity.
private struct KeyReservations {
    /// The next key to hand out and the end of the reserved range.
    var ranges: [ObjectIdentifier: (next: Int64, end: Int64)] = [:]
    /// The size of the last range reserved (ranges grow, so an import reserves rarely).
    var reservationSize: [ObjectIdentifier: Int64] = [:]
}

/// How to turn a row of a full-table SELECT into an entity's slot values.
struct RowReadPlan: Sendable {
    enum Column: Sendable {
        case attribute(slot: Int, index: Int, type: AttributeType)
        case toOne(slot: Int, index: Int, entityIndex: Int?, destination: String)
    }
    let slotCount: Int
    let columns: [Column]

    init(entity: EntityDescription, mapping: StoreSchema.EntityMapping, columns tableColumns: [String], model: ManagedObjectModel) {
        slotCount = entity.allProperties.count
        let indexOf = Dictionary(tableColumns.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        columns = mapping.columns.sorted { $0.key < $1.key }.compactMap { slot, column in
            guard let index = indexOf[column] else { return nil }
            switch entity.allProperties[slot] {
            case let attribute as AttributeDescription:
                return .attribute(slot: slot, index: index, type: attribute.attributeType)
            case let relationship as RelationshipDescription:
                return .toOne(
                    slot: slot,
                    index: index,
                    entityIndex: mapping.entityColumns[slot].flatMap { indexOf[$0] },
                    destination: relationship.destinationEntity!.name
                )
            default:
                return nil
            }
        }
    }
}
