import Foundation

/// Turns the XML tree of an Xcode model's `contents` file into a ``ManagedObjectModel``,
/// recording in an ``XcodeModelReport`` everything it skips or maps with a difference.
///
/// Attributes of the XML that mean nothing on Linux and change nothing in the data
/// (`syncable`, `usesScalarValueType`, `codeGenerationType`, `spotlightIndexingEnabled`, the
/// document's tool versions, the `elements` layout) are read and ignored without an entry.
struct XcodeModelMapper {
    /// The model file (for the report).
    let url: URL
    /// Classes to bind entities to, by entity name or class name.
    let modelClasses: [String: ManagedObject.Type]
    private(set) var entries: [XcodeModelReport.Entry] = []

    init(url: URL, modelClasses: [String: ManagedObject.Type]) {
        self.url = url
        self.modelClasses = modelClasses
    }

    /// The XML attributes of `<model>` that are understood.
    static let modelKeys: Set<String> = [
        "type", "documentVersion", "lastSavedToolsVersion", "systemVersion", "minimumToolsVersion",
        "sourceLanguage", "userDefinedModelVersionIdentifier", "name", "macOSVersion", "iOSVersion",
        "macosVersion", "iosVersion", "usedWithSwiftData",
    ]
    /// The XML attributes of `<entity>` that are understood.
    static let entityKeys: Set<String> = [
        "name", "representedClassName", "parentEntity", "isAbstract", "syncable", "codeGenerationType",
        "versionHashModifier", "renamingID", "elementID", "className",
    ]

    /// The model `root` describes.
    ///
    /// - Throws: ``ObjectGraphError`` with code ``ObjectGraphError/Code/invalidModelFile`` when
    ///   the root element is not an Xcode data model.
    mutating func model(from root: XMLTree, contentsPath: String) throws -> ManagedObjectModel {
        guard root.name == "model" else {
            throw ObjectGraphError(.invalidModelFile, "\(contentsPath) is not an Xcode data model: its root element is <\(root.name)>, not <model>")
        }
        if let type = root["type"], type != "com.apple.IDECoreDataModeler.DataModel" {
            throw ObjectGraphError(
                .invalidModelFile,
                "\(contentsPath) is not an Xcode data model: its model type is '\(type)', not 'com.apple.IDECoreDataModeler.DataModel'"
            )
        }
        let model = ManagedObjectModel()
        if let identifier = root["userDefinedModelVersionIdentifier"], !identifier.isEmpty {
            model.versionIdentifiers = [identifier]
        }
        reportUnknownKeys(of: root, known: Self.modelKeys, entity: nil, property: nil)
        if root.flag("usedWithCloudKit") {
            skip(nil, nil, "usedWithCloudKit=\"YES\"", "ObjectGraph does not sync with CloudKit", root.line)
        }
        var entities: [EntityDescription] = []
        for child in root.children {
            switch child.name {
            case "entity":
                if let entity = entity(from: child) { entities.append(entity) }
            case "elements":
                break  // Xcode's diagram layout: positions of boxes, nothing about data.
            case "configuration":
                let members = child.children(named: "memberEntity").compactMap { $0["name"] }
                skip(
                    nil,
                    nil,
                    "configuration \"\(child["name"] ?? "")\"",
                    "ObjectGraph keeps one store per coordinator and has no configurations (members: \(members.joined(separator: ", ")))",
                    child.line
                )
            case "fetchRequest":
                skip(
                    nil,
                    nil,
                    "fetch request template \"\(child["name"] ?? "")\"",
                    "ObjectGraph has no fetch request templates; build a FetchRequest for entity '\(child["entity"] ?? "?")' with predicate '\(child["predicateString"] ?? "")' in code",
                    child.line
                )
            case "composite":
                skip(nil, nil, "composite attribute type \"\(child["name"] ?? "")\"", "ObjectGraph has no composite attributes", child.line)
            default:
                skip(nil, nil, "<\(child.name)>", "unknown element", child.line)
            }
        }
        model.entities = entities
        return model
    }

    // MARK: Entities

    private mutating func entity(from element: XMLTree) -> EntityDescription? {
        guard let name = element["name"], !name.isEmpty else {
            skip(nil, nil, "<entity>", "an entity without a name", element.line)
            return nil
        }
        let entity = EntityDescription()
        entity.name = name
        entity.isAbstract = element.flag("isAbstract")
        entity.superentityName = element["parentEntity"]
        entity.renamingIdentifier = element["renamingID"] ?? element["elementID"]
        entity.versionHashModifier = element["versionHashModifier"]
        entity.representedClassName = element["representedClassName"]
        entity.managedObjectClass = boundClass(for: entity, line: element.line)
        reportUnknownKeys(of: element, known: Self.entityKeys, entity: name, property: nil)
        var properties: [PropertyDescription] = []
        for child in element.children {
            switch child.name {
            case "attribute":
                if let attribute = attribute(from: child, entity: name) { properties.append(attribute) }
            case "relationship":
                if let relationship = relationship(from: child, entity: name) { properties.append(relationship) }
            case "fetchedProperty":
                let request = child.children(named: "fetchRequest").first
                skip(
                    name,
                    child["name"],
                    "fetched property",
                    "ObjectGraph has no fetched properties; fetch '\(request?["entity"] ?? "?")' with predicate '\(request?["predicateString"] ?? "")' in code",
                    child.line
                )
            case "userInfo":
                entity.userInfo = userInfo(from: child)
            case "uniquenessConstraints":
                entity.uniquenessConstraints = child.children(named: "uniquenessConstraint").map { constraint in
                    constraint.children(named: "constraint").compactMap { $0["value"] }
                }
            case "fetchIndex":
                if let index = fetchIndex(from: child, entity: name) { entity.indexes.append(index) }
            case "compoundIndexes":
                for (number, compound) in child.children(named: "compoundIndex").enumerated() {
                    let keys = compound.children(named: "index").compactMap { $0["value"] }
                    entity.indexes.append(
                        FetchIndexDescription(
                            name: "\(name)_compoundIndex\(number + 1)",
                            elements: keys.map { FetchIndexElementDescription(propertyName: $0) }
                        )
                    )
                }
            default:
                skip(name, nil, "<\(child.name)>", "unknown element", child.line)
            }
        }
        entity.properties = properties
        return entity
    }

    /// The class bound to `entity`: from the registry by entity name, else by class name.
    private mutating func boundClass(for entity: EntityDescription, line: Int) -> ManagedObject.Type {
        if let bound = modelClasses[entity.name] { return bound }
        if let className = entity.representedClassName {
            let shortName = className.split(separator: ".").last.map(String.init) ?? className
            if let bound = modelClasses[className] ?? modelClasses[shortName] { return bound }
            if !modelClasses.isEmpty && className != "NSManagedObject" {
                change(
                    entity.name,
                    nil,
                    "representedClassName=\"\(className)\"",
                    "no class in modelClasses is registered for the entity or '\(shortName)': its objects are ManagedObject",
                    line
                )
            }
        }
        return ManagedObject.self
    }

    private mutating func fetchIndex(from element: XMLTree, entity: String) -> FetchIndexDescription? {
        let name = element["name"] ?? "\(entity)_index"
        var elements: [FetchIndexElementDescription] = []
        for child in element.children(named: "fetchIndexElement") {
            if let type = child["type"], type != "Binary" {
                skip(entity, child["property"], "fetch index \"\(name)\"", "ObjectGraph has no \(type) indexes (only Binary)", element.line)
                return nil
            }
            guard let property = child["property"] else {
                skip(
                    entity,
                    nil,
                    "fetch index \"\(name)\"",
                    "ObjectGraph indexes properties, not expressions ('\(child["expression"] ?? "")')",
                    element.line
                )
                return nil
            }
            elements.append(FetchIndexElementDescription(propertyName: property, isAscending: child["order"] != "descending"))
        }
        return FetchIndexDescription(name: name, elements: elements)
    }

    // MARK: Shared

    /// The `<entry key= value=>` pairs of a `<userInfo>` element.
    func userInfo(from element: XMLTree) -> [String: String] {
        var info: [String: String] = [:]
        for entry in element.children(named: "entry") {
            if let key = entry["key"] { info[key] = entry["value"] ?? "" }
        }
        return info
    }

    mutating func reportUnknownKeys(of element: XMLTree, known: Set<String>, entity: String?, property: String?) {
        for key in element.attributes.keys.sorted() where !known.contains(key) && key != "usedWithCloudKit" {
            skip(entity, property, "\(key)=\"\(element.attributes[key] ?? "")\"", "unknown XML attribute of <\(element.name)>", element.line)
        }
    }

    mutating func skip(_ entity: String?, _ property: String?, _ item: String, _ message: String, _ line: Int) {
        entries.append(.init(kind: .skipped, entity: entity, property: property, item: item, message: message, line: line))
    }

    mutating func change(_ entity: String?, _ property: String?, _ item: String, _ message: String, _ line: Int) {
        entries.append(.init(kind: .changed, entity: entity, property: property, item: item, message: message, line: line))
    }
}
