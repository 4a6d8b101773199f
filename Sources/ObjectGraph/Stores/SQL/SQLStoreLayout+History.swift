import Foundation

// Persistent history for a store in another module (the PostgreSQL store): the names an
// update's changed properties are recorded by, and delete tombstones — the values of the
// attributes marked `preservesValueInHistoryOnDeletion`, read before the row goes — kept as
// JSON the database builds (`jsonb_build_object`, PostgreSQL's) and read back by attribute type.
extension SQLStoreLayout {
    /// The names of the stored properties at `slots` of the entity of code `entityCode`,
    /// comma-separated as persistent history records an update's changed properties (as the
    /// SQLite store does); `nil` for none.
    package func changedPropertyNames(entityCode: Int, slots: [Int], model: ManagedObjectModel) -> String? {
        guard let name = plan.entity(code: entityCode)?.name, let entity = model.entity(named: name) else { return nil }
        var seen = Set<Int>()
        let names = slots.compactMap { slot -> String? in
            guard slot >= 0, slot < entity.allProperties.count, seen.insert(slot).inserted else { return nil }
            let property = entity.allProperties[slot]
            return property.isTransient ? nil : property.name
        }
        return names.isEmpty ? nil : names.joined(separator: ",")
    }

    /// The properties recorded as `names` (see ``changedPropertyNames(entityCode:slots:model:)``)
    /// of the entity named `entityName`; those the model no longer has are left out.
    package func changedProperties(_ names: String?, entityName: String, model: ManagedObjectModel) -> Set<PropertyDescription> {
        let properties = model.entity(named: entityName)?.propertiesByName ?? [:]
        return Set((names ?? "").split(separator: ",").compactMap { properties[String($0)] })
    }

    /// `SELECT "Z_PK", "Z_ENT", tombstone::text FROM table WHERE "Z_PK" = ANY($1)` reading the
    /// tombstones of rows of the entity named `entityName` (keys bound as one `bigint[]`): a
    /// JSON object of the preserved attributes that hold a value. `nil` when the entity
    /// preserves none.
    package func tombstoneQuery(entityName: String, model: ManagedObjectModel) -> String? {
        guard let entity = model.entity(named: entityName), let mapping = schema.mappings[entity.name] else { return nil }
        let q = dialect.quoted
        let pairs = entity.allProperties.compactMap { property -> String? in
            guard let attribute = property as? AttributeDescription, attribute.preservesValueInHistoryOnDeletion, !attribute.isTransient,
                let column = mapping.columns[attribute.slot]
            else { return nil }
            return "'\(attribute.name.replacingOccurrences(of: "'", with: "''"))', \(q(column))"
        }
        guard !pairs.isEmpty else { return nil }
        return
            "SELECT \(q("Z_PK")), \(q("Z_ENT")), jsonb_strip_nulls(jsonb_build_object(\(pairs.joined(separator: ", "))))::text FROM \(q(mapping.table)) WHERE \(q("Z_PK")) = ANY(\(dialect.placeholder(1)))"
    }

    /// A tombstone read by ``tombstoneQuery(entityName:model:)``, its values typed as the
    /// entity's attributes type them (as a fetch returns them); an attribute the model no
    /// longer has keeps its JSON value.
    package func decodeTombstone(_ json: String, entityName: String, model: ManagedObjectModel) -> [String: Any] {
        guard let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] else { return [:] }
        let attributes = model.entity(named: entityName)?.attributesByName ?? [:]
        var result: [String: Any] = [:]
        for (name, raw) in object {
            guard let attribute = attributes[name] else {
                result[name] = raw
                continue
            }
            let number = raw as? NSNumber
            let text = raw as? String
            let value: Value?
            switch attribute.attributeType {
            case .string: value = text.map { .string($0) }
            case .uri: value = text.flatMap(URL.init(string:)).map { .url($0) }
            case .boolean: value = number.map { .bool($0.int64Value != 0) }
            case .integer16, .integer32, .integer64: value = number.map { .int($0.int64Value) }
            case .double, .float: value = number.map { .double($0.doubleValue) }
            case .date: value = number.map { .date(Date(timeIntervalSinceReferenceDate: $0.doubleValue)) }
            case .decimal:
                value = (number.map { Decimal(string: $0.stringValue) } ?? text.map { Decimal(string: $0) }).flatMap { $0 }.map { .decimal($0) }
            case .binaryData, .transformable: value = text.flatMap(Self.bytes(hex:)).map { .data($0) }
            case .uuid:
                value = text.flatMap(Self.bytes(hex:)).flatMap { data in
                    data.count == 16 ? .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }) : nil
                }
            }
            if let value, let converted = attribute.publicValue(from: value) { result[name] = converted }
        }
        return result
    }

    /// The bytes of PostgreSQL's `bytea` text form, `\x0a1b…`.
    private static func bytes(hex: String) -> Data? {
        guard hex.hasPrefix("\\x") else { return nil }
        let digits = Array(hex.utf8.dropFirst(2))
        guard digits.count % 2 == 0 else { return nil }
        var data = Data(capacity: digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let byte = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            data.append(byte)
            index += 2
        }
        return data
    }
}
