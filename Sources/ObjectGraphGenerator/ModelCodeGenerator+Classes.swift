import Foundation
import ObjectGraph

extension ModelCodeGenerator {
    /// `_Photo.swift`: the machine class with one `@Managed` property per attribute and
    /// relationship of the entity (inherited ones come from the parent's class).
    func machineFile(for entity: EntityDescription) -> String {
        let name = className(of: entity)
        let parent = entity.superentity.map { className(of: $0) } ?? "ManagedObject"
        let types = entity.properties.map { swiftType(of: $0).type }
        let foundationTypes = ["Date", "Data", "URL", "UUID", "Decimal"]
        let usesFoundation = types.contains { type in foundationTypes.contains { type.hasPrefix($0) } }
        var lines: [String] = []
        lines.append(machineHeader)
        lines.append(importLine("Foundation", publicly: usesFoundation))
        lines.append(importLine("ObjectGraph", publicly: true))
        lines.append("")
        lines.append(
            "/// The properties of the `\(entity.name)` entity\(entity.isAbstract ? " (abstract)" : ""), as the model declares them. Subclassed by"
        )
        lines.append("/// ``\(name)``, the class to use and extend.")
        lines.append("\(access)class _\(name): \(parent) {")
        for property in entity.properties {
            lines.append(contentsOf: declaration(of: property).map { "    " + $0 })
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    /// `Photo.swift`: the class the developer owns, written once.
    func humanFile(for entity: EntityDescription) -> String {
        let name = className(of: entity)
        let kind = hasSubentities(entity) ? "class" : "final class"
        return """
            import Foundation
            import ObjectGraph

            /// A `\(entity.name)` object.
            ///
            /// objectgraph-gen wrote this file once and never rewrites it: add your own code here.
            /// The model's properties are in `_\(name).swift`, which it rewrites on every run.
            \(access)\(kind) \(name): _\(name) {}

            """
    }

    private func hasSubentities(_ entity: EntityDescription) -> Bool {
        model.entities.contains { $0.superentity === entity }
    }

    /// The doc comment and `@Managed` declaration of `property`.
    private func declaration(of property: PropertyDescription) -> [String] {
        let key = property.name
        var swiftName = SwiftSource.identifier(key)
        var attribute = "@Managed"
        if SwiftSource.inheritedMembers.contains(key) {
            swiftName = "\(key)_"
            attribute = "@Managed(\(SwiftSource.literal(key)))"
        }
        let (type, doc) = swiftType(of: property)
        return ["/// \(SwiftSource.docText(doc))", "\(attribute) \(access)var \(swiftName): \(type)"]
    }

    /// The Swift type of `property` and a one-line description for its doc comment.
    func swiftType(of property: PropertyDescription) -> (type: String, doc: String) {
        if let relationship = property as? RelationshipDescription {
            let destination = relationship.destinationEntity.map { className(of: $0) } ?? "ManagedObject"
            let rule = "delete rule \(relationship.deleteRule.rawValue)"
            if !relationship.isToMany {
                return (
                    "\(destination)?",
                    "To-one relationship `\(relationship.name)`\(inverseText(relationship)), \(relationship.isOptional ? "optional" : "required"); \(rule)."
                )
            }
            let counts = countText(relationship)
            if relationship.isOrdered {
                return ("[\(destination)]", "Ordered to-many relationship `\(relationship.name)`\(inverseText(relationship))\(counts); \(rule).")
            }
            return ("Set<\(destination)>", "To-many relationship `\(relationship.name)`\(inverseText(relationship))\(counts); \(rule).")
        }
        guard let attribute = property as? AttributeDescription else { return ("Any?", "Property `\(property.name)`.") }
        let required = !attribute.isOptional
        var notes: [String] = [required ? "required" : "optional"]
        if attribute.isTransient { notes.append("transient") }
        if attribute.derivationExpression != nil { notes.append("derived (not evaluated: stores what it is given)") }
        let scalar: String? =
            switch attribute.attributeType {
            case .boolean: "Bool"
            case .integer16: "Int16"
            case .integer32: "Int32"
            case .integer64: "Int64"
            case .double: "Double"
            case .float: "Float"
            case .decimal: "Decimal"
            default: nil
            }
        if let scalar {
            if required { notes.append("a nil value reads as 0") }
            return (
                required ? scalar : "\(scalar)?",
                "Attribute `\(attribute.name)` (\(attribute.attributeType.rawValue)), \(notes.joined(separator: ", "))."
            )
        }
        let type: String
        switch attribute.attributeType {
        case .string: type = "String?"
        case .date: type = "Date?"
        case .binaryData: type = "Data?"
        case .uuid: type = "UUID?"
        case .uri: type = "URL?"
        case .transformable:
            if let transformer = attribute.valueTransformerName {
                notes.append("values as the transformer '\(transformer)' gives them (Data while none is registered)")
                type = "Any?"
            } else {
                type = "Data?"
            }
            if let className = attribute.attributeValueClassName { notes.append("the model's class is \(className)") }
        default: type = "Any?"
        }
        return (type, "Attribute `\(attribute.name)` (\(attribute.attributeType.rawValue)), \(notes.joined(separator: ", ")).")
    }

    private func inverseText(_ relationship: RelationshipDescription) -> String {
        let destination = relationship.destinationEntity?.name ?? "?"
        guard let inverse = relationship.inverseRelationship else { return " to `\(destination)` (no inverse)" }
        return " to `\(destination)`, inverse `\(inverse.name)`"
    }

    private func countText(_ relationship: RelationshipDescription) -> String {
        switch (relationship.minCount, relationship.maxCount) {
        case (0, 0): ""
        case (let min, 0): ", at least \(min)"
        case (0, let max): ", at most \(max)"
        case (let min, let max): ", \(min) to \(max)"
        }
    }
}
