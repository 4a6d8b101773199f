import Foundation
import ObjectGraph

extension ModelCodeGenerator {
    /// `LibraryModel.swift`: an enum whose `make()` builds the model in Swift, every entity
    /// bound to its generated class, and whose `modelClasses` binds the classes when reading
    /// the Xcode model itself (for its versions).
    func modelFile() -> String {
        let entities = model.entities.sorted { $0.name < $1.name }
        var lines: [String] = [machineHeader, "import Foundation", importLine("ObjectGraph", publicly: true), ""]
        lines.append("/// The `\(modelName)` model (\(SwiftSource.docText(source))), built in Swift with each entity bound to its class.")
        lines.append("\(access)enum \(modelName)Model {")
        lines.append("    /// The class of each entity, by entity name, for")
        lines.append("    /// `ManagedObjectModelBundle(contentsOf:modelClasses:)` and `ManagedObjectModel(contentsOf:modelClasses:)`.")
        lines.append("    \(access)static var modelClasses: [String: ManagedObject.Type] {")
        lines.append("        [")
        for entity in entities { lines.append("            \(SwiftSource.literal(entity.name)): \(className(of: entity)).self,") }
        lines.append("        ]")
        lines.append("    }")
        lines.append("")
        lines.append("    /// A new model (a container freezes the model it loads, so each container gets its own).")
        lines.append("    \(access)static func make() -> ManagedObjectModel {")
        lines.append("        let model = ManagedObjectModel {")
        for entity in entities { lines.append(contentsOf: entityLines(entity).map { "            " + $0 }) }
        lines.append("        }")
        if !model.versionIdentifiers.isEmpty {
            lines.append("        model.versionIdentifiers = [\(model.versionIdentifiers.sorted().map(SwiftSource.literal).joined(separator: ", "))]")
        }
        lines.append("        return model")
        lines.append("    }")
        lines.append("}")
        lines.append("")
        lines.append("/// Runs `change` on `object` and returns it, to set what the builder's initializers do not take.")
        lines.append("private func configured<Object: AnyObject>(_ object: Object, _ change: (Object) -> Void) -> Object {")
        lines.append("    change(object)")
        lines.append("    return object")
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private func entityLines(_ entity: EntityDescription) -> [String] {
        var arguments = [SwiftSource.literal(entity.name), "class: \(className(of: entity)).self"]
        if let parent = entity.superentity { arguments.append("parent: \(SwiftSource.literal(parent.name))") }
        if entity.isAbstract { arguments.append("isAbstract: true") }
        var settings: [String] = []
        if let representedClassName = entity.representedClassName {
            settings.append("$0.representedClassName = \(SwiftSource.literal(representedClassName))")
        }
        settings += commonSettings(renaming: entity.renamingIdentifier, hashModifier: entity.versionHashModifier, userInfo: entity.userInfo)
        let descendingIndexes = entity.indexes.filter { $0.elements.contains { !$0.isAscending } }
        if !descendingIndexes.isEmpty {
            let indexes = descendingIndexes.map { index in
                let elements = index.elements.map {
                    "FetchIndexElementDescription(propertyName: \(SwiftSource.literal($0.propertyName)), isAscending: \($0.isAscending))"
                }
                return "FetchIndexDescription(name: \(SwiftSource.literal(index.name)), elements: [\(elements.joined(separator: ", "))])"
            }
            settings.append("$0.indexes += [\(indexes.joined(separator: ", "))]")
        }
        var lines = ["EntityDescription(\(arguments.joined(separator: ", "))) {"]
        for property in entity.properties {
            lines.append(contentsOf: propertyLines(property).map { "    " + $0 })
        }
        lines.append("}")
        for constraint in entity.uniquenessConstraints {
            lines.append(".unique(\(constraint.map(SwiftSource.literal).joined(separator: ", ")))")
        }
        for index in entity.indexes where !index.elements.contains(where: { !$0.isAscending }) {
            lines.append(".index(\(([index.name] + index.elements.map(\.propertyName)).map(SwiftSource.literal).joined(separator: ", ")))")
        }
        return wrap(lines, settings: settings)
    }

    private func propertyLines(_ property: PropertyDescription) -> [String] {
        var settings = commonSettings(renaming: property.renamingIdentifier, hashModifier: property.versionHashModifier, userInfo: property.userInfo)
        if let relationship = property as? RelationshipDescription {
            var arguments = [SwiftSource.literal(relationship.name), "to: \(SwiftSource.literal(relationship.destinationEntity?.name ?? ""))"]
            arguments.append("inverse: \(relationship.inverseRelationship.map { SwiftSource.literal($0.name) } ?? "nil")")
            if relationship.isToMany { arguments.append("toMany: true") }
            if relationship.isOrdered { arguments.append("ordered: true") }
            if !relationship.isOptional { arguments.append("optional: false") }
            if relationship.deleteRule != .nullify { arguments.append("deleteRule: .\(relationship.deleteRule.rawValue)") }
            if relationship.minCount != 0 { arguments.append("minCount: \(relationship.minCount)") }
            if relationship.isToMany && relationship.maxCount != 0 { arguments.append("maxCount: \(relationship.maxCount)") }
            if relationship.isTransient { settings.append("$0.isTransient = true") }
            if relationship.isIndexed { settings.append("$0.isIndexed = true") }
            return wrap(["RelationshipDescription(\(arguments.joined(separator: ", ")))"], settings: settings)
        }
        guard let attribute = property as? AttributeDescription else { return [] }
        let type = attribute.attributeType
        var arguments = [SwiftSource.literal(attribute.name), ".\(type.rawValue)"]
        if !attribute.isOptional { arguments.append("optional: false") }
        if let value = attribute.defaultValue, let literal = SwiftSource.valueLiteral(value, type: type) {
            arguments.append("defaultValue: \(literal)")
        }
        if attribute.isTransient { arguments.append("transient: true") }
        if attribute.isIndexed { arguments.append("indexed: true") }
        if let transformer = attribute.valueTransformerName { arguments.append("valueTransformerName: \(SwiftSource.literal(transformer))") }
        for (key, value) in [("minValue", attribute.minValue), ("maxValue", attribute.maxValue)] {
            if let value, let literal = SwiftSource.valueLiteral(value, type: type) { settings.append("$0.\(key) = \(literal)") }
        }
        if let minLength = attribute.minLength { settings.append("$0.minLength = \(minLength)") }
        if let maxLength = attribute.maxLength { settings.append("$0.maxLength = \(maxLength)") }
        if let pattern = attribute.regularExpression { settings.append("$0.regularExpression = \(SwiftSource.literal(pattern))") }
        if attribute.allowsExternalBinaryDataStorage { settings.append("$0.allowsExternalBinaryDataStorage = true") }
        if let className = attribute.attributeValueClassName { settings.append("$0.attributeValueClassName = \(SwiftSource.literal(className))") }
        if let expression = attribute.derivationExpression { settings.append("$0.derivationExpression = \(SwiftSource.literal(expression))") }
        return wrap(["AttributeDescription(\(arguments.joined(separator: ", ")))"], settings: settings)
    }

    private func commonSettings(renaming: String?, hashModifier: String?, userInfo: [String: String]) -> [String] {
        var settings: [String] = []
        if let renaming { settings.append("$0.renamingIdentifier = \(SwiftSource.literal(renaming))") }
        if let hashModifier { settings.append("$0.versionHashModifier = \(SwiftSource.literal(hashModifier))") }
        if !userInfo.isEmpty {
            let pairs = userInfo.sorted { $0.key < $1.key }.map { "\(SwiftSource.literal($0.key)): \(SwiftSource.literal($0.value))" }
            settings.append("$0.userInfo = [\(pairs.joined(separator: ", "))]")
        }
        return settings
    }

    /// `lines` (an expression) as is, or wrapped in `configured(…) { … }` to apply `settings`.
    private func wrap(_ lines: [String], settings: [String]) -> [String] {
        guard !settings.isEmpty else { return lines }
        var wrapped = lines
        wrapped[0] = "configured(" + wrapped[0]
        wrapped[wrapped.count - 1] += ") {"
        wrapped += settings.map { "    " + $0 }
        wrapped.append("}")
        return wrapped
    }
}

extension SwiftSource {
    /// A Swift expression for `value`, an attribute value of `type` (a default, a minimum or a
    /// maximum); `nil` for a value that has no literal form.
    static func valueLiteral(_ value: Any, type: AttributeType) -> String? {
        switch value {
        case let string as String: return literal(string)
        case let bool as Bool: return bool ? "true" : "false"
        case let int as Int16: return "Int16(\(int))"
        case let int as Int32: return "Int32(\(int))"
        case let int as Int64: return "Int64(\(int))"
        case let int as Int: return "\(int)"
        case let double as Double: return type == .float ? "Float(\(double))" : "\(double)"
        case let float as Float: return "Float(\(float))"
        case let decimal as Decimal: return "Decimal(string: \(literal("\(decimal)")))!"
        case let date as Date: return "Date(timeIntervalSinceReferenceDate: \(date.timeIntervalSinceReferenceDate))"
        case let uuid as UUID: return "UUID(uuidString: \(literal(uuid.uuidString)))!"
        case let url as URL: return "URL(string: \(literal(url.absoluteString)))!"
        default: return nil
        }
    }
}
