import Foundation
import GRDB

/// Everything the SQLite store needs to read and write one model, computed once when the store
/// opens and never changed: per entity code, its table, columns, read plan, INSERT and the
/// statements a delete runs; per to-many relationship, where its members are stored.
///
/// Contexts hand the store entity codes and relationship keys (``SaveChanges``), never names:
/// a save looks each one up in an array.
struct StorePlan: Sendable {
    /// How one entity is stored (a class: rows decode through it, one reference each).
    final class EntityPlan: Sendable {
        let name: String
        let code: Int
        /// The code and name of the root of the entity's inheritance tree, whose keys it shares.
        let rootCode: Int
        let rootName: String
        let mapping: StoreSchema.EntityMapping
        /// How to decode a row of a full-table SELECT (`selectList`).
        let read: RowReadPlan
        /// The table's columns, as every row SELECT lists them.
        let selectList: String
        /// The INSERT of a new row with every stored column.
        let insertSQL: String
        /// Per slot: how many columns the INSERT writes for it (0: not stored; 2: a to-one
        /// into an inheritance tree, with the destination's entity code).
        let insertColumns: [UInt8]
        /// Per slot: the column an UPDATE writes, `nil` for a slot not stored in the row.
        let updateColumns: [String?]
        /// The DELETE of a row, then of the join rows on either side of it.
        let deleteStatements: [String]
        /// The slots of binary attributes kept in Core Data's external binary storage format
        /// (see ``ExternalBinaryStorage``): empty but in Core Data's layout.
        let externalSlots: [Int]

        init(
            name: String,
            code: Int,
            rootCode: Int,
            rootName: String,
            mapping: StoreSchema.EntityMapping,
            read: RowReadPlan,
            selectList: String,
            insertSQL: String,
            insertColumns: [UInt8],
            updateColumns: [String?],
            deleteStatements: [String],
            externalSlots: [Int]
        ) {
            self.name = name
            self.code = code
            self.rootCode = rootCode
            self.rootName = rootName
            self.mapping = mapping
            self.read = read
            self.selectList = selectList
            self.insertSQL = insertSQL
            self.insertColumns = insertColumns
            self.updateColumns = updateColumns
            self.deleteStatements = deleteStatements
            self.externalSlots = externalSlots
        }
    }

    let schema: StoreSchema
    /// By entity code (`Z_ENT`); index 0 is unused.
    let entities: [EntityPlan?]
    /// Per table: its columns as a fetch selects them, from the table aliased `t0`.
    let aliasedSelectLists: [String: String]
    private let codesByName: [String: Int]

    /// The plan of `model` in `layout`; for a store that exists, `existingTables` names its
    /// tables and its join tables' columns (see
    /// ``StoreSchema/init(model:layout:existingTables:existingJoinColumns:)``).
    init(
        model: ManagedObjectModel,
        layout: StoreLayout,
        existingTables: Set<String>? = nil,
        existingJoinColumns: [String: Set<String>] = [:]
    ) {
        let schema = StoreSchema(model: model, layout: layout, existingTables: existingTables, existingJoinColumns: existingJoinColumns)
        self.schema = schema
        var entities: [EntityPlan?] = Array(repeating: nil, count: (model.entities.map(\.entityCode).max() ?? 0) + 1)
        var codes: [String: Int] = [:]
        for entity in model.entities {
            guard let mapping = schema.mappings[entity.name], let table = schema.tables[mapping.table] else { continue }
            let tableColumns = ["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)
            var names = ["Z_PK", "Z_ENT", "Z_OPT"]
            var insertColumns: [UInt8] = []
            var updateColumns: [String?] = []
            for slot in entity.allProperties.indices {
                guard let column = mapping.columns[slot] else {
                    insertColumns.append(0)
                    updateColumns.append(nil)
                    continue
                }
                names.append(column)
                updateColumns.append(column)
                if let entityColumn = mapping.entityColumns[slot] {
                    names.append(entityColumn)
                    insertColumns.append(2)
                } else {
                    insertColumns.append(1)
                }
            }
            let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
            entities[entity.entityCode] = EntityPlan(
                name: entity.name,
                code: entity.entityCode,
                rootCode: entity.rootEntity.entityCode,
                rootName: entity.rootEntity.name,
                mapping: mapping,
                read: RowReadPlan(entity: entity, mapping: mapping, columns: tableColumns, model: model),
                selectList: tableColumns.joined(separator: ", "),
                insertSQL: "INSERT INTO \(mapping.table) (\(names.joined(separator: ", "))) VALUES (\(placeholders))",
                insertColumns: insertColumns,
                updateColumns: updateColumns,
                deleteStatements: ["DELETE FROM \(mapping.table) WHERE Z_PK = ?"] + schema.joinRowDeletes(for: entity),
                externalSlots: layout == .coreData ? Self.externalSlots(of: entity, mapping: mapping) : []
            )
            codes[entity.name] = entity.entityCode
        }
        self.entities = entities
        codesByName = codes
        aliasedSelectLists = schema.tables.mapValues { table in
            (["Z_PK", "Z_ENT", "Z_OPT"] + table.columns.map(\.name)).map { "t0.\($0)" }.joined(separator: ", ")
        }
    }

    /// The stored slots of `entity`'s binary attributes that allow external storage.
    private static func externalSlots(of entity: EntityDescription, mapping: StoreSchema.EntityMapping) -> [Int] {
        entity.allProperties.indices.filter { slot in
            guard let attribute = entity.allProperties[slot] as? AttributeDescription else { return false }
            return attribute.attributeType == .binaryData && attribute.allowsExternalBinaryDataStorage && mapping.columns[slot] != nil
        }
    }

    /// The plan of entity code `code`, or `nil` for a code the model does not have.
    @inline(__always)
    func entity(code: Int) -> EntityPlan? {
        code > 0 && code < entities.count ? entities[code] : nil
    }

    /// One more than the highest entity code.
    var entityCount: Int { entities.count }

    /// The IDs of the store `storeIdentifier` laid out by this plan.
    func objectIDs(storeIdentifier: String) -> StoreObjectIDs {
        StoreObjectIDs(storeIdentifier: storeIdentifier, entityNames: (0..<entityCount).map { entity(code: $0)?.name })
    }

    /// The plan of the entity named `name`, or `nil` when the model has no such entity.
    func entity(named name: String) -> EntityPlan? {
        codesByName[name].flatMap { entity(code: $0) }
    }
}

/// How to turn a row of a full-table SELECT into an entity's slot values.
struct RowReadPlan: Sendable {
    enum Column: Sendable {
        case attribute(slot: Int, index: Int, type: AttributeType)
        /// `destination` is the destination entity's code (the concrete entity when the row has no
        /// entity column for the relationship).
        case toOne(slot: Int, index: Int, entityIndex: Int?, destination: Int)
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
                    destination: relationship.destinationEntity!.entityCode
                )
            default:
                return nil
            }
        }
    }
}
