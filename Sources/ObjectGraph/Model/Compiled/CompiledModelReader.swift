import Foundation

/// Reads a model Xcode compiled (a `.mom` file, the current version of a `.momd` folder) or
/// that Core Data cached in a store (`Z_MODELCACHE`, compressed): `NSKeyedArchiver` archives of
/// `NSManagedObjectModel`, `NSEntityDescription`, `NSAttributeDescription` and
/// `NSRelationshipDescription`.
///
/// What ObjectGraph has no counterpart for is left out, as from an Xcode model: fetched
/// properties, fetch request templates, configurations, validation predicates; a derived
/// attribute keeps its derivation as text (its `predicateFormat`, the form an Xcode model
/// writes), not evaluated.
enum CompiledModelReader {
    /// The model in the `.mom` file at `url`.
    static func readMom(at url: URL, modelClasses: [String: ManagedObject.Type]) throws -> ManagedObjectModel {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ObjectGraphError(.invalidModelFile, "cannot read the compiled model \(url.path)", underlying: error)
        }
        return try model(archive: data, source: url.path, modelClasses: modelClasses)
    }

    /// The current version of the `.momd` folder at `url`: the `.mom` its `VersionInfo.plist`
    /// names (`NSManagedObjectModel_CurrentVersionName`), else its only `.mom`.
    static func readMomd(at url: URL, modelClasses: [String: ManagedObject.Type]) throws -> ManagedObjectModel {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
        let moms = names.filter { $0.hasSuffix(".mom") }.sorted()
        var current: String?
        let info = url.appendingPathComponent("VersionInfo.plist")
        if let data = try? Data(contentsOf: info) {
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
            current = plist?["NSManagedObjectModel_CurrentVersionName"] as? String
        }
        let name: String
        if let current, moms.contains(current + ".mom") {
            name = current + ".mom"
        } else if current == nil, moms.count == 1 {
            name = moms[0]
        } else if let current {
            throw ObjectGraphError(
                .invalidModelFile,
                "\(url.path): VersionInfo.plist names the current version '\(current)', but the folder has no \(current).mom (it has \(moms.joined(separator: ", ")))"
            )
        } else {
            throw ObjectGraphError(
                .invalidModelFile,
                "\(url.path) is not a compiled model folder: it has \(moms.isEmpty ? "no .mom file" : "several .mom files and no VersionInfo.plist naming the current one")"
            )
        }
        return try readMom(at: url.appendingPathComponent(name), modelClasses: modelClasses)
    }

    /// The model Core Data cached in a store's `Z_MODELCACHE` (raw DEFLATE of a keyed archive).
    static func model(cache: Data, source: String) throws -> ManagedObjectModel {
        let archive: Data
        do {
            archive = try Inflate.decompress(cache)
        } catch {
            throw ObjectGraphError(.invalidModelFile, "the model cache (Z_MODELCACHE) of \(source) cannot be decompressed", underlying: error)
        }
        return try model(archive: archive, source: "the model cache (Z_MODELCACHE) of \(source)", modelClasses: [:])
    }

    /// The model archived in `data`; `source` names it in errors.
    static func model(archive data: Data, source: String, modelClasses: [String: ManagedObject.Type]) throws -> ManagedObjectModel {
        let archive: KeyedArchive
        do {
            archive = try KeyedArchive(data)
        } catch {
            throw ObjectGraphError(.invalidModelFile, "\(source) is not a compiled Core Data model (a keyed archive)", underlying: error)
        }
        guard archive.className(archive.root) == "NSManagedObjectModel" else {
            throw ObjectGraphError(
                .invalidModelFile,
                "\(source) is a keyed archive of \(archive.className(archive.root) ?? "an unknown class"), not of NSManagedObjectModel"
            )
        }
        let fields = archive.fields(archive.root)
        let model = ManagedObjectModel()
        model.versionIdentifiers = Set(archive.array(fields["NSVersionIdentifiers"]).compactMap { archive.string($0) })
        var entities: [EntityDescription] = []
        for (name, value) in archive.dictionary(fields["NSEntities"]).sorted(by: { $0.key < $1.key }) {
            entities.append(entity(named: name, value, in: archive, modelClasses: modelClasses))
        }
        // A model cache lists a subentity's inherited properties as its own copies: keep
        // each property on the entity highest up that declares it.
        let byName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            var inherited: Set<String> = []
            var parent = entity.superentityName.flatMap { byName[$0] }
            while let ancestor = parent {
                inherited.formUnion(ancestor.properties.map(\.name))
                parent = ancestor.superentityName.flatMap { byName[$0] }
            }
            if !inherited.isEmpty { entity.properties = entity.properties.filter { !inherited.contains($0.name) } }
        }
        model.entities = entities
        model.resolveReferencesByName()
        return model
    }

    private static func entity(
        named name: String,
        _ value: KeyedArchive.Value,
        in archive: KeyedArchive,
        modelClasses: [String: ManagedObject.Type]
    ) -> EntityDescription {
        let fields = archive.fields(value)
        let entity = EntityDescription()
        entity.name = name
        entity.isAbstract = archive.bool(fields["NSIsAbstract"])
        entity.superentityName = archive.string(archive.fields(fields["NSSuperentity"])["NSEntityName"])
        let renaming = archive.string(fields["NSRenamingIdentifier"])
        entity.renamingIdentifier = renaming == name ? nil : renaming
        entity.versionHashModifier = archive.string(fields["NSVersionHashModifier"])
        entity.representedClassName = archive.string(fields["NSClassNameForEntity"])
        if let bound = modelClasses[name] ?? entity.representedClassName.flatMap({ modelClasses[$0] }) { entity.managedObjectClass = bound }
        for (key, value) in archive.dictionary(fields["NSUserInfo"]) {
            if let string = archive.string(value) { entity.userInfo[key] = string }
        }
        var properties: [PropertyDescription] = []
        for (propertyName, value) in archive.dictionary(fields["NSProperties"]).sorted(by: { $0.key < $1.key }) {
            // A subentity's archive lists its inherited properties too: keep its own.
            let owner = archive.string(archive.fields(archive.fields(value)["NSEntity"])["NSEntityName"])
            guard owner == nil || owner == name else { continue }
            switch archive.className(value) {
            case "NSAttributeDescription", "NSDerivedAttributeDescription":
                if let attribute = attribute(named: propertyName, value, in: archive) { properties.append(attribute) }
            case "NSRelationshipDescription":
                properties.append(relationship(named: propertyName, value, in: archive))
            default:
                break  // fetched properties and what else ObjectGraph has no counterpart for
            }
        }
        entity.properties = properties
        entity.uniquenessConstraints = archive.array(fields["NSUniqueTuples"]).map { tuple in
            archive.array(tuple).compactMap { propertyName($0, in: archive) }
        }
        for index in archive.array(fields["NSFetchIndexDescriptions"]) {
            let indexFields = archive.fields(index)
            let elements = archive.array(indexFields["NSIndexElements"]).compactMap { element -> FetchIndexElementDescription? in
                let elementFields = archive.fields(element)
                guard let property = propertyName(elementFields["NSPropertyName"] ?? elementFields["NSProperty"], in: archive) else { return nil }
                let ascending = elementFields["NSAscending"].map { archive.bool($0) } ?? true
                return FetchIndexElementDescription(propertyName: property, isAscending: ascending)
            }
            if let indexName = archive.string(indexFields["NSIndexName"]), !elements.isEmpty {
                entity.indexes.append(FetchIndexDescription(name: indexName, elements: elements))
            }
        }
        for (number, compound) in archive.array(fields["NSCompoundIndexes"]).enumerated() {
            let keys = archive.array(compound).compactMap { propertyName($0, in: archive) }
            guard !keys.isEmpty else { continue }
            entity.indexes.append(
                FetchIndexDescription(
                    name: "\(name)_compoundIndex\(number + 1)",
                    elements: keys.map { FetchIndexElementDescription(propertyName: $0) }
                )
            )
        }
        return entity
    }

    /// A property's name, given as a string or as the archived property description.
    private static func propertyName(_ value: KeyedArchive.Value?, in archive: KeyedArchive) -> String? {
        archive.string(value) ?? archive.string(archive.fields(value)["NSPropertyName"])
    }

    private static func readCommon(_ fields: [String: KeyedArchive.Value], into property: PropertyDescription, in archive: KeyedArchive) {
        property.isOptional = archive.bool(fields["NSIsOptional"])
        property.isTransient = archive.bool(fields["NSIsTransient"])
        property.isIndexed = archive.bool(fields["NSIsIndexed"])
        let renaming = archive.string(fields["NSRenamingIdentifier"])
        property.renamingIdentifier = renaming == property.name ? nil : renaming
        property.versionHashModifier = archive.string(fields["NSVersionHashModifier"])
        for (key, value) in archive.dictionary(fields["NSUserInfo"]) {
            if let string = archive.string(value) { property.userInfo[key] = string }
        }
    }

    private static func attribute(named name: String, _ value: KeyedArchive.Value, in archive: KeyedArchive) -> AttributeDescription? {
        let fields = archive.fields(value)
        guard let code = archive.int(fields["NSAttributeType"]), let type = AttributeType.allCases.first(where: { $0.coreDataCode == code }) else {
            return nil  // undefined, object ID and composite attributes: no ObjectGraph counterpart
        }
        let attribute = AttributeDescription()
        attribute.name = name
        attribute.attributeType = type
        readCommon(fields, into: attribute, in: archive)
        attribute.allowsExternalBinaryDataStorage = archive.bool(fields["NSAllowsExternalBinaryDataStorage"])
        // NSFlagsKey's bit 16 is Xcode's preserveAfterDeletion (SampleModel's Person.id has it,
        // and the hashes agree only with it).
        attribute.preservesValueInHistoryOnDeletion = (archive.int(fields["NSFlagsKey"]) ?? 0) & 16 != 0
        attribute.valueTransformerName = archive.string(fields["NSValueTransformerName"])
        if type == .transformable { attribute.attributeValueClassName = archive.string(fields["NSAttributeValueClassName"]) }
        if archive.className(value) == "NSDerivedAttributeDescription" {
            // Kept as its predicateFormat, which is also what Core Data hashes for it.
            attribute.derivationExpression = archive.expressionFormat(fields["NSDerivationExpression"]) ?? ""
        }
        switch archive.resolve(fields["NSDefaultValue"]) {
        case .int(let int): attribute.defaultValue = type == .boolean ? (int != 0) as Any : defaultNumber(Int(int), type)
        case .bool(let bool): attribute.defaultValue = type == .boolean ? bool as Any : defaultNumber(bool ? 1 : 0, type)
        case .real(let real): attribute.defaultValue = type == .float || type == .double ? real as Any : nil
        case .string(let string) where type == .string: attribute.defaultValue = string
        default: break
        }
        return attribute
    }

    /// An integer default as the attribute's type holds it.
    private static func defaultNumber(_ value: Int, _ type: AttributeType) -> Any? {
        switch type {
        case .integer16: Int16(clamping: value)
        case .integer32: Int32(clamping: value)
        case .integer64: Int64(value)
        case .double: Double(value)
        case .float: Float(value)
        case .decimal: Decimal(value)
        case .boolean: value != 0
        default: nil
        }
    }

    private static func relationship(named name: String, _ value: KeyedArchive.Value, in archive: KeyedArchive) -> RelationshipDescription {
        let fields = archive.fields(value)
        let relationship = RelationshipDescription()
        relationship.name = name
        readCommon(fields, into: relationship, in: archive)
        relationship.destinationEntityName =
            archive.string(fields["_NSDestinationEntityName"]) ?? archive.string(archive.fields(fields["NSDestinationEntity"])["NSEntityName"])
        relationship.inverseName =
            archive.string(fields["_NSInverseRelationshipName"])
            ?? archive.string(archive.fields(fields["NSInverseRelationship"])["NSPropertyName"])
        relationship.minCount = max(0, archive.int(fields["NSMinCount"]) ?? 0)
        // A model built in code may archive an unbounded to-many as -1 (NSUIntegerMax, whose
        // low 32 bits Core Data's version hash takes); Xcode archives 0.
        let maxCount = archive.int(fields["NSMaxCount"]) ?? 1
        relationship.maxCount = maxCount < 0 ? Int(UInt32.max) : maxCount
        relationship.isOrdered = archive.bool(fields["NSIsOrdered"])
        switch archive.int(fields["NSDeleteRule"]) ?? 1 {
        case 0: relationship.deleteRule = .noAction
        case 2: relationship.deleteRule = .cascade
        case 3: relationship.deleteRule = .deny
        default: relationship.deleteRule = .nullify
        }
        return relationship
    }
}
