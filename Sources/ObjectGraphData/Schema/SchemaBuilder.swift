import Foundation
import ObjectGraph

/// Builds a ``Schema``'s entities from `@Model` classes, and the ObjectGraph model from them.
enum SchemaBuilder {
    /// The entities of `types` and of every model class their relationships reach, by name.
    static func entities(reachableFrom types: [any PersistentModel.Type]) -> [Schema.Entity] {
        var found: [String: Schema.Entity] = [:]
        var pending = types
        while let type = pending.popLast() {
            guard found[type.entityName] == nil else { continue }
            let properties = type.schemaMetadata.map(property)
            found[type.entityName] = Schema.Entity(name: type.entityName, type: type, properties: properties)
            for property in properties {
                switch property.kind {
                case .toOne(let destination), .toMany(let destination): pending.append(destination)
                case .attribute, .composite: break
                }
            }
        }
        return found.values.sorted { $0.name < $1.name }
    }

    /// How a property of Swift type `metadata.valueType` is stored.
    static func property(_ metadata: Schema.PropertyMetadata) -> Schema.Property {
        var type = metadata.valueType
        var isOptional = false
        if let optional = type as? any _ModelOptional.Type {
            type = optional._wrappedType
            isOptional = true
        }
        let kind: Schema.Kind
        if let model = type as? any PersistentModel.Type {
            kind = .toOne(model)
        } else if let array = type as? any _ModelArray.Type, let model = array._elementType as? any PersistentModel.Type {
            kind = .toMany(model)
        } else if let attributeType = attributeType(of: type) {
            kind = .attribute(attributeType, codable: nil)
        } else if let rawType = rawValueAttributeType(of: type) {
            kind = .attribute(rawType, codable: nil)
        } else if let layout = CompositeLayout.of(type) {
            kind = .composite(layout)
        } else if let codable = type as? any Codable.Type {
            kind = .attribute(.transformable, codable: codable)
        } else {
            preconditionFailure("ObjectGraphData: \(metadata.name) has type \(metadata.valueType), which is neither Codable nor a model")
        }
        return Schema.Property(
            name: metadata.name,
            keyPath: metadata.keypath,
            isOptional: isOptional,
            kind: kind,
            attribute: metadata.metadata as? Schema.Attribute,
            relationship: metadata.metadata as? Schema.Relationship
        )
    }

    /// The attribute type SwiftData maps a Swift type to; `nil` for Codable types it encodes.
    static func attributeType(of type: Any.Type) -> AttributeType? {
        switch ObjectIdentifier(type) {
        case ObjectIdentifier(String.self): .string
        case ObjectIdentifier(Bool.self): .boolean
        case ObjectIdentifier(Int.self), ObjectIdentifier(Int64.self), ObjectIdentifier(UInt.self), ObjectIdentifier(UInt64.self),
            ObjectIdentifier(UInt32.self):
            .integer64
        case ObjectIdentifier(Int32.self), ObjectIdentifier(UInt16.self): .integer32
        case ObjectIdentifier(Int16.self), ObjectIdentifier(Int8.self), ObjectIdentifier(UInt8.self): .integer16
        case ObjectIdentifier(Double.self): .double
        case ObjectIdentifier(Float.self): .float
        case ObjectIdentifier(Decimal.self): .decimal
        case ObjectIdentifier(Date.self): .date
        case ObjectIdentifier(Data.self): .binaryData
        case ObjectIdentifier(UUID.self): .uuid
        case ObjectIdentifier(URL.self): .uri
        default: nil
        }
    }

    /// The attribute type of the raw value of a `RawRepresentable` type (an enum with raw
    /// values), which is stored as its raw value.
    static func rawValueAttributeType(of type: Any.Type) -> AttributeType? {
        guard let representable = type as? any RawRepresentable.Type else { return nil }
        return attributeType(of: rawValueType(representable))
    }

    private static func rawValueType<T: RawRepresentable>(_ type: T.Type) -> Any.Type { T.RawValue.self }

    /// The attributes storing the composite property `property`: one per leaf of `layout`.
    static func compositeAttributes(_ property: Schema.Property, _ layout: CompositeLayout) -> [AttributeDescription] {
        layout.leaves.map { leaf in
            let name = CompositeLayout.attributeName(property.name, leaf.name)
            let attribute = AttributeDescription(name, leaf.type, optional: property.isOptional || leaf.isOptional)
            attribute.preservesValueInHistoryOnDeletion = property.attribute?.options.contains(.preserveValueOnDeletion) == true
            return attribute
        }
    }

    /// The ObjectGraph model of `entities`: inverses as declared, or inferred where one
    /// relationship each way links two entities (as SwiftData infers them).
    static func managedObjectModel(_ entities: [Schema.Entity], version: Schema.Version) -> ManagedObjectModel {
        let inverses = inverseNames(entities)
        let model = ManagedObjectModel()
        model.versionIdentifiers = [version.description]
        model.entities = entities.map { entity in
            let description = EntityDescription(entity.name)
            description.properties = entity.properties.flatMap { property -> [PropertyDescription] in
                switch property.kind {
                case .composite(let layout):
                    return compositeAttributes(property, layout)
                case .attribute(let type, let codable):
                    let attribute = AttributeDescription(property.name, type, optional: property.isOptional, transformableType: codable)
                    let options = property.attribute?.options ?? []
                    attribute.allowsExternalBinaryDataStorage = options.contains(.externalStorage)
                    attribute.preservesValueInHistoryOnDeletion = options.contains(.preserveValueOnDeletion)
                    attribute.isTransient = options.contains(.ephemeral)
                    attribute.renamingIdentifier = property.attribute?.originalName
                    attribute.versionHashModifier = property.attribute?.hashModifier
                    return [attribute]
                case .toOne(let destination), .toMany(let destination):
                    let toMany: Bool
                    if case .toMany = property.kind { toMany = true } else { toMany = false }
                    let options = property.relationship
                    let relationship = RelationshipDescription(
                        property.name,
                        to: destination.entityName,
                        inverse: inverses["\(entity.name).\(property.name)"],
                        toMany: toMany,
                        optional: property.isOptional || toMany,
                        deleteRule: options?.deleteRule.objectGraphRule ?? .nullify,
                        minCount: toMany ? max(options?.minimumModelCount ?? 0, 0) : 0,
                        maxCount: toMany ? max(options?.maximumModelCount ?? 0, 0) : 1
                    )
                    relationship.renamingIdentifier = options?.originalName
                    relationship.versionHashModifier = options?.hashModifier
                    return [relationship]
                }
            }
            for property in entity.properties where property.attribute?.options.contains(.unique) == true {
                description.uniquenessConstraints.append([property.name])
            }
            let names = { (group: [AnyKeyPath]) in
                group.map { keyPath in
                    guard let property = entity.properties.first(where: { $0.keyPath == keyPath }) else {
                        preconditionFailure("ObjectGraphData: \(keyPath) in #Unique or #Index of \(entity.name) is not a persisted property")
                    }
                    return property.name
                }
            }
            for group in entity.type._$uniqueConstraints { description.uniquenessConstraints.append(names(group)) }
            for group in entity.type._$indexes {
                let keys = names(group)
                description.indexes.append(
                    FetchIndexDescription(
                        name: "\(entity.name)_\(keys.joined(separator: "_"))",
                        elements: keys.map { FetchIndexElementDescription(propertyName: $0) }
                    )
                )
            }
            return description
        }
        return model
    }

    /// Each relationship's inverse name, keyed `"Entity.relationship"`.
    static func inverseNames(_ entities: [Schema.Entity]) -> [String: String] {
        struct End: Hashable {
            let entity: String
            let name: String
            let destination: String
        }
        var ends: [End] = []
        var keyPaths: [AnyKeyPath: End] = [:]
        var declared: [End: AnyKeyPath] = [:]
        for entity in entities {
            for property in entity.properties {
                let destination: String
                switch property.kind {
                case .toOne(let type), .toMany(let type): destination = type.entityName
                case .attribute, .composite: continue
                }
                let end = End(entity: entity.name, name: property.name, destination: destination)
                ends.append(end)
                keyPaths[property.keyPath] = end
                if let inverse = property.relationship?.inverse { declared[end] = inverse }
            }
        }
        var inverse: [End: End] = [:]
        for (end, keyPath) in declared {
            guard let other = keyPaths[keyPath] else {
                preconditionFailure("ObjectGraphData: the inverse of \(end.entity).\(end.name) is not a relationship of \(end.destination)")
            }
            inverse[end] = other
            inverse[other] = end
        }
        // Inferred: the only unpaired relationship from A to B and the only one from B to A.
        let unpaired = ends.filter { inverse[$0] == nil }
        for end in unpaired where inverse[end] == nil && end.entity != end.destination {
            let forward = unpaired.filter { $0.entity == end.entity && $0.destination == end.destination && inverse[$0] == nil }
            let backward = unpaired.filter { $0.entity == end.destination && $0.destination == end.entity && inverse[$0] == nil }
            if forward.count == 1, backward.count == 1 {
                inverse[end] = backward[0]
                inverse[backward[0]] = end
            }
        }
        var names: [String: String] = [:]
        for (end, other) in inverse { names["\(end.entity).\(end.name)"] = other.name }
        return names
    }
}
