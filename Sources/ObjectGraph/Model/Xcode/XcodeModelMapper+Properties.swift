import Foundation

extension XcodeModelMapper {
    /// The XML attributes of `<attribute>` that are understood.
    static let attributeKeys: Set<String> = [
        "name", "optional", "transient", "indexed", "attributeType", "defaultValueString",
        "defaultDateTimeInterval", "minValueString", "maxValueString", "minDateTimeInterval",
        "maxDateTimeInterval", "regularExpressionString", "usesScalarValueType", "syncable",
        "valueTransformerName", "customClassName", "attributeValueClassName",
        "allowsExternalBinaryDataStorage", "spotlightIndexingEnabled", "derived", "derivationExpression",
        "renamingID", "elementID", "versionHashModifier", "preserveAfterDeletion",
    ]
    /// The XML attributes of `<attribute>` that Core Data honours and ObjectGraph does not.
    static let unsupportedAttributeKeys: [String: String] = [
        "allowsCloudEncryption": "ObjectGraph does not sync with CloudKit",
        "storedInTruthFile": "ObjectGraph writes no Spotlight external records",
        "storedInExternalRecord": "ObjectGraph writes no Spotlight external records",
    ]
    /// The XML attributes of `<relationship>` that are understood.
    static let relationshipKeys: Set<String> = [
        "name", "optional", "transient", "indexed", "toMany", "ordered", "minCount", "maxCount", "deletionRule",
        "destinationEntity", "inverseName", "inverseEntity", "syncable", "spotlightIndexingEnabled",
        "renamingID", "elementID", "versionHashModifier",
    ]

    /// Xcode's `attributeType` names.
    static let attributeTypes: [String: AttributeType] = [
        "String": .string, "Boolean": .boolean, "Integer 16": .integer16, "Integer 32": .integer32,
        "Integer 64": .integer64, "Double": .double, "Float": .float, "Decimal": .decimal, "Date": .date,
        "Binary": .binaryData, "UUID": .uuid, "URI": .uri, "Transformable": .transformable,
    ]

    // MARK: Attributes

    mutating func attribute(from element: XMLTree, entity: String) -> AttributeDescription? {
        guard let name = element["name"] else {
            skip(entity, nil, "<attribute>", "an attribute without a name", element.line)
            return nil
        }
        let typeName = element["attributeType"] ?? "Undefined"
        guard let type = Self.attributeTypes[typeName] else {
            let why =
                switch typeName {
                case "Undefined": "ObjectGraph has no untyped (Undefined) attributes"
                case "ObjectID": "ObjectGraph has no object ID attributes"
                case "Composite": "ObjectGraph has no composite attributes"
                default: "unknown attribute type"
                }
            skip(entity, name, "attributeType=\"\(typeName)\"", why, element.line)
            return nil
        }
        let attribute = AttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        readCommon(element, into: attribute, entity: entity)
        attribute.allowsExternalBinaryDataStorage = element.flag("allowsExternalBinaryDataStorage")
        attribute.preservesValueInHistoryOnDeletion = element.flag("preserveAfterDeletion")
        attribute.regularExpression = element["regularExpressionString"]
        attribute.attributeValueClassName = element["customClassName"] ?? element["attributeValueClassName"]
        reportUnknownKeys(of: element, known: Self.attributeKeys.union(Self.unsupportedAttributeKeys.keys), entity: entity, property: name)
        for (key, why) in Self.unsupportedAttributeKeys.sorted(by: { $0.key < $1.key }) where element.flag(key) {
            skip(entity, name, "\(key)=\"YES\"", why, element.line)
        }
        if type == .transformable {
            readTransformer(element, into: attribute, entity: entity)
        }
        if element.flag("derived") {
            attribute.derivationExpression = element["derivationExpression"] ?? ""
            change(
                entity,
                name,
                "derived attribute",
                "the derivation expression '\(attribute.derivationExpression ?? "")' is kept by an SQLite store's triggers, as Core Data keeps it (a PostgreSQL or in-memory store stores the values it is given)",
                element.line
            )
        }
        readValues(element, into: attribute, entity: entity)
        return attribute
    }

    private mutating func readTransformer(_ element: XMLTree, into attribute: AttributeDescription, entity: String) {
        let name = attribute.name
        guard let transformer = element["valueTransformerName"], !transformer.isEmpty else {
            change(
                entity,
                name,
                "transformable attribute without valueTransformerName",
                "Core Data would unarchive values with NSKeyedUnarchiveFromData; ObjectGraph stores and returns Data (set transformableType or a valueTransformerName)",
                element.line
            )
            return
        }
        attribute.valueTransformerName = transformer
        if ValueTransformerRegistry.valueTransformer(forName: transformer) == nil {
            change(
                entity,
                name,
                "valueTransformerName=\"\(transformer)\"",
                "no transformer is registered under this name: values are Data until one is registered with ValueTransformerRegistry.setValueTransformer(_:forName:)",
                element.line
            )
        }
    }

    /// Default, minimum and maximum, converted from Xcode's strings to the attribute's type.
    private mutating func readValues(_ element: XMLTree, into attribute: AttributeDescription, entity: String) {
        let type = attribute.attributeType
        let name = attribute.name
        if type == .date {
            if let interval = element["defaultDateTimeInterval"] {
                attribute.defaultValue = dateValue(interval, "defaultDateTimeInterval", element, entity, name)
            }
            if let interval = element["minDateTimeInterval"] ?? (element["minValueString"]) {
                attribute.minValue = dateValue(interval, "minimum date", element, entity, name)
            }
            if let interval = element["maxDateTimeInterval"] ?? (element["maxValueString"]) {
                attribute.maxValue = dateValue(interval, "maximum date", element, entity, name)
            }
            return
        }
        if let string = element["defaultValueString"] {
            if let value = Self.value(string, of: type) {
                attribute.defaultValue = value
            } else {
                skip(entity, name, "defaultValueString=\"\(string)\"", "not a valid \(type.swiftTypeName) value", element.line)
            }
        }
        for (key, isMinimum) in [("minValueString", true), ("maxValueString", false)] {
            guard let string = element[key] else { continue }
            switch type {
            case .string, .binaryData:
                // Xcode's minimum and maximum length of strings and binary values.
                guard let length = Int(string), length >= 0 else {
                    skip(entity, name, "\(key)=\"\(string)\"", "not a length", element.line)
                    continue
                }
                if isMinimum { attribute.minLength = length } else { attribute.maxLength = length }
            case .integer16, .integer32, .integer64, .double, .float, .decimal:
                guard let value = Self.value(string, of: type) else {
                    skip(entity, name, "\(key)=\"\(string)\"", "not a valid \(type.swiftTypeName) value", element.line)
                    continue
                }
                if isMinimum { attribute.minValue = value } else { attribute.maxValue = value }
            default:
                skip(entity, name, "\(key)=\"\(string)\"", "ObjectGraph checks no minimum or maximum for \(type.swiftTypeName) values", element.line)
            }
        }
    }

    private mutating func dateValue(_ string: String, _ what: String, _ element: XMLTree, _ entity: String, _ name: String) -> Date? {
        guard let seconds = Double(string) else {
            skip(entity, name, "\(what) \"\(string)\"", "not a number of seconds since 2001-01-01", element.line)
            return nil
        }
        return Date(timeIntervalSinceReferenceDate: seconds)
    }

    /// A value of `type` written as Xcode writes defaults (`YES`/`NO`, `0`, `0.0`, text).
    static func value(_ string: String, of type: AttributeType) -> Any? {
        let trimmed = string.trimmingCharacters(in: .whitespaces)
        switch type {
        case .string: return string
        case .boolean:
            switch trimmed.uppercased() {
            case "YES", "TRUE", "1": return true
            case "NO", "FALSE", "0": return false
            default: return nil
            }
        case .integer16: return Int16(trimmed) ?? Double(trimmed).flatMap { Int16(exactly: $0) }
        case .integer32: return Int32(trimmed) ?? Double(trimmed).flatMap { Int32(exactly: $0) }
        case .integer64: return Int64(trimmed) ?? Double(trimmed).flatMap { Int64(exactly: $0) }
        case .double: return Double(trimmed)
        case .float: return Double(trimmed).flatMap { Float(exactly: $0) ?? Float($0) }.map { Double($0) }
        case .decimal: return Decimal(string: trimmed, locale: Locale(identifier: "en_US_POSIX"))
        case .uuid: return UUID(uuidString: trimmed)
        case .uri: return URL(string: trimmed)
        case .date: return Double(trimmed).map { Date(timeIntervalSinceReferenceDate: $0) }
        case .binaryData, .transformable: return nil
        }
    }

    // MARK: Relationships

    mutating func relationship(from element: XMLTree, entity: String) -> RelationshipDescription? {
        guard let name = element["name"] else {
            skip(entity, nil, "<relationship>", "a relationship without a name", element.line)
            return nil
        }
        let relationship = RelationshipDescription()
        relationship.name = name
        readCommon(element, into: relationship, entity: entity)
        relationship.destinationEntityName = element["destinationEntity"]
        relationship.inverseName = element["inverseName"]
        relationship.isOrdered = element.flag("ordered")
        let toMany = element.flag("toMany")
        let maxCount = element["maxCount"].flatMap(Int.init)
        relationship.maxCount = toMany ? (maxCount.map { $0 == 1 ? 0 : $0 } ?? 0) : 1
        relationship.minCount = element["minCount"].flatMap(Int.init) ?? 0
        if toMany, maxCount == 1 {
            change(
                entity,
                name,
                "toMany=\"YES\" maxCount=\"1\"",
                "ObjectGraph takes maxCount 1 for a to-one relationship: this to-many relationship is unbounded",
                element.line
            )
        }
        if !toMany, relationship.minCount > 1 { relationship.minCount = 1 }
        switch element["deletionRule"] ?? "Nullify" {
        case "Nullify": relationship.deleteRule = .nullify
        case "Cascade": relationship.deleteRule = .cascade
        case "Deny": relationship.deleteRule = .deny
        case "No Action": relationship.deleteRule = .noAction
        case let other:
            change(entity, name, "deletionRule=\"\(other)\"", "unknown delete rule: Nullify is used", element.line)
        }
        if let inverseEntity = element["inverseEntity"], let destination = element["destinationEntity"], inverseEntity != destination {
            change(
                entity,
                name,
                "inverseEntity=\"\(inverseEntity)\"",
                "differs from destinationEntity '\(destination)': the inverse is looked up in '\(destination)'",
                element.line
            )
        }
        reportUnknownKeys(of: element, known: Self.relationshipKeys, entity: entity, property: name)
        return relationship
    }

    /// What attributes and relationships share: optional, transient, indexed, user info,
    /// renaming identifier and hash modifier.
    private mutating func readCommon(_ element: XMLTree, into property: PropertyDescription, entity: String) {
        property.isOptional = element.flag("optional")
        property.isTransient = element.flag("transient")
        property.isIndexed = element.flag("indexed")
        property.renamingIdentifier = element["renamingID"] ?? element["elementID"]
        property.versionHashModifier = element["versionHashModifier"]
        for child in element.children {
            if child.name == "userInfo" {
                property.userInfo = userInfo(from: child)
            } else {
                skip(entity, property.name, "<\(child.name)>", "unknown element", child.line)
            }
        }
    }
}
