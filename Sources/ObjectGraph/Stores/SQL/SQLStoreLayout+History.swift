import Foundation

// Persistent history for a store in another module: the names an update's changed properties
// are recorded by, and delete tombstones — the values of the attributes marked
// `preservesValueInHistoryOnDeletion`, read before the row goes — kept as JSON the database
// builds (``SQLDialect/jsonObjectText(_:)``) and read back by attribute type.
extension SQLStoreLayout {
    /// The names of the stored properties at `slots` of the entity of code `entityCode`,
    /// comma-separated as persistent history records an update's changed properties (as the
    /// SQLite store does); `nil` for none.
    package func changedPropertyNames(entityCode: Int, slots: [Int], model: ManagedObjectModel) -> String? {
        guard let name = plan.entity(code: entityCode)?.name else { return nil }
        return changedPropertyNames(entityName: name, slots: slots, model: model)
    }

    /// The names of the stored properties at `slots` of the entity named `entityName`, as
    /// ``changedPropertyNames(entityCode:slots:model:)`` records them; `nil` for none.
    func changedPropertyNames(entityName: String, slots: [Int], model: ManagedObjectModel) -> String? {
        guard let entity = model.entity(named: entityName) else { return nil }
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

    /// `SELECT Z_PK, Z_ENT, tombstone FROM table WHERE Z_PK …` reading the tombstones of
    /// `keyCount` rows of the entity named `entityName` (keys bound as
    /// ``SQLDialect/keyMembership(count:)`` binds them): a JSON object of the preserved
    /// attributes that hold a value, as text. `nil` when the entity preserves none.
    package func tombstoneQuery(entityName: String, keyCount: Int, model: ManagedObjectModel) -> String? {
        guard let entity = model.entity(named: entityName), let mapping = schema.mappings[entity.name] else { return nil }
        let q = dialect.quoted
        let pairs = entity.allProperties.compactMap { property -> (name: String, value: String)? in
            guard let attribute = property as? AttributeDescription, attribute.preservesValueInHistoryOnDeletion, !attribute.isTransient,
                let column = mapping.columns[attribute.slot]
            else { return nil }
            return (attribute.name, q(column))
        }
        guard !pairs.isEmpty else { return nil }
        return
            "SELECT \(q("Z_PK")), \(q("Z_ENT")), \(dialect.jsonObjectText(pairs)) FROM \(q(mapping.table)) WHERE \(q("Z_PK")) \(dialect.keyMembership(count: keyCount))"
    }

    /// A tombstone read by ``tombstoneQuery(entityName:keyCount:model:)``, its values typed as the
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
            case .binaryData, .transformable: value = text.flatMap(dialect.bytes(inJSONText:)).map { .data($0) }
            case .uuid:
                value = text.flatMap(dialect.bytes(inJSONText:)).flatMap { data in
                    data.count == 16 ? .uuid(data.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }) : nil
                }
            }
            if let value, let converted = attribute.publicValue(from: value) { result[name] = converted }
        }
        return result
    }
}
