public import Foundation

/// Core Data's version hashes: the 32-byte SHA-256 digests an `NSEntityDescription` and an
/// `NSPropertyDescription` report as `versionHash`, and a store keeps per entity in its
/// metadata (`NSStoreModelVersionHashes`) to tell whether a model can open it.
///
/// What goes into each digest, in order (integers little-endian, strings UTF-8):
/// - a property: its name; a 16-bit flag word (1 optional, 2 transient, 4 read-only); its
///   version hash modifier, if any;
/// - an attribute: the property digest; its `NSAttributeType` code as 32 bits (100 for
///   Integer 16 … 1800 for Transformable); a byte 1 when it allows external binary storage;
///   a byte 1 when it preserves its value in history on deletion;
/// - a derived attribute: its derivation expression's `predicateFormat` (`count:(pages)`)
///   and nothing else — not its name, type or optionality. Core Data's
///   `-[NSDerivedAttributeDescription _versionHash:inStyle:]` computes the attribute digest
///   above into a buffer it never feeds to its own SHA-256 (SampleModel2's stores, whose
///   `Book` has `pagesCount` derived from `pages.@count`, hash only this way). A key path
///   ending in `.@count` is hashed as Core Data stores it, `count:(path)`; `.@sum` and
///   `.@total` as `sum:(path)`;
/// - a relationship: the property digest; the destination entity's name; the inverse's name
///   (unless the relationship is its own inverse); `maxCount` and `minCount` as 32 bits; a
///   16-bit 1 when ordered. The delete rule is not part of it;
/// - an entity: its name; a byte for `isAbstract`; its superentity's digest; the digests of
///   its stored attributes and relationships, inherited ones included, ordered by name
///   (transient ones left out); its version hash modifier; its uniqueness constraints, each
///   joined with ".", sorted.
///
/// Names, optionality and types change a hash; class names, user info, indexes, validation
/// rules and default values do not — as Core Data decides "is this store compatible".
enum CoreDataVersionHash {
    /// The version hash of `entity`, as Core Data computes it.
    static func of(_ entity: EntityDescription) -> Data {
        var data = Data(entity.name.utf8)
        data.append(entity.isAbstract ? 1 : 0)
        if let parent = parent(of: entity) { data.append(of(parent)) }
        for property in storedProperties(of: entity) { data.append(of(property, declaredBy: entity.name)) }
        if let modifier = entity.versionHashModifier { data.append(contentsOf: modifier.utf8) }
        for constraint in entity.uniquenessConstraints.map({ $0.joined(separator: ".") }).sorted() where !constraint.isEmpty {
            data.append(contentsOf: constraint.utf8)
        }
        return SHA256.hash(data)
    }

    /// The version hash of `property`, as Core Data computes it; `declaredBy` names its entity
    /// where the property may not be linked to it yet (a model not yet validated).
    static func of(_ property: PropertyDescription, declaredBy entityName: String? = nil) -> Data {
        if let attribute = property as? AttributeDescription, let expression = attribute.derivationExpression {
            return SHA256.hash(Data(derivationFormat(expression).utf8))
        }
        var data = base(of: property)
        switch property {
        case let attribute as AttributeDescription:
            append(UInt32(attribute.attributeType.coreDataCode), to: &data)
            if attribute.allowsExternalBinaryDataStorage { data.append(1) }
            if attribute.preservesValueInHistoryOnDeletion { data.append(1) }
        case let relationship as RelationshipDescription:
            if let destination = relationship.destinationEntity?.name ?? relationship.destinationEntityName {
                data.append(contentsOf: destination.utf8)
            }
            // Its own inverse: resolved (`===`), or still by name before the model is validated.
            let isOwnInverse =
                relationship.inverseRelationship === relationship
                || (relationship.inverseRelationship == nil && relationship.inverseName == relationship.name
                    && (relationship.destinationEntity?.name ?? relationship.destinationEntityName) == (entityName ?? property.entity?.name))
            if !isOwnInverse, let inverse = relationship.inverseRelationship?.name ?? relationship.inverseName {
                data.append(contentsOf: inverse.utf8)
            }
            append(UInt32(clamping: relationship.maxCount), to: &data)
            append(UInt32(clamping: relationship.minCount), to: &data)
            if relationship.isOrdered { append(UInt16(1), to: &data) }
        default:
            break
        }
        return SHA256.hash(data)
    }

    /// A derivation expression as Core Data keeps it, and so hashes it: a key path ending in
    /// an aggregate (`pages.@count`, as an Xcode model may write it) is turned into the
    /// function Core Data's `setDerivationExpression:` makes of it (`count:(pages)`); other
    /// expressions are taken as their `predicateFormat` already.
    static func derivationFormat(_ expression: String) -> String {
        let trimmed = expression.trimmingCharacters(in: .whitespaces)
        for (suffix, function) in [(".@count", "count:"), (".@sum", "sum:"), (".@total", "sum:")] where trimmed.hasSuffix(suffix) {
            let path = trimmed.dropLast(suffix.count)
            if !path.isEmpty, !path.contains(where: { $0 == "(" || $0 == " " }) { return "\(function)(\(path))" }
        }
        return trimmed
    }

    /// The digest every property starts from: name, flags, modifier.
    private static func base(of property: PropertyDescription) -> Data {
        var data = Data(property.name.utf8)
        append(UInt16((property.isOptional ? 1 : 0) | (property.isTransient ? 2 : 0)), to: &data)
        if let modifier = property.versionHashModifier { data.append(contentsOf: modifier.utf8) }
        return SHA256.hash(data)
    }

    /// `entity`'s parent, found by name when the model has not linked it yet.
    private static func parent(of entity: EntityDescription) -> EntityDescription? {
        if let parent = entity.superentity { return parent }
        return entity.superentityName.flatMap { name in entity.managedObjectModel?.entities.first { $0.name == name } }
    }

    /// The entity's stored properties with the inherited ones (an own property hides an
    /// inherited one of the same name), ordered by name as Core Data orders them.
    private static func storedProperties(of entity: EntityDescription) -> [PropertyDescription] {
        var byName: [String: PropertyDescription] = [:]
        var chain: [EntityDescription] = []
        var seen: Set<ObjectIdentifier> = []
        var current: EntityDescription? = entity
        while let candidate = current, seen.insert(ObjectIdentifier(candidate)).inserted {
            chain.append(candidate)
            current = parent(of: candidate)
        }
        for ancestor in chain.reversed() {
            for property in ancestor.properties where !property.isTransient { byName[property.name] = property }
        }
        return byName.values.sorted { $0.name.unicodeScalars.lexicographicallyPrecedes($1.name.unicodeScalars) }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to data: inout Data) {
        withUnsafeBytes(of: value.littleEndian) { data.append(contentsOf: $0) }
    }
}

extension AttributeType {
    /// Core Data's `NSAttributeType` raw value for this type.
    var coreDataCode: Int {
        switch self {
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binaryData: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        }
    }
}

extension EntityDescription {
    /// The entity's version hash, exactly as Core Data's `NSEntityDescription.versionHash`:
    /// 32 bytes that change when the entity's stored form changes (its name, parent,
    /// abstractness, stored properties or hash modifier) and only then.
    ///
    /// A Core Data store lists these per entity in its metadata; equal hashes mean the entity
    /// reads and writes the store's rows as they are.
    public var versionHash: Data { CoreDataVersionHash.of(self) }
}

extension PropertyDescription {
    /// The property's version hash, exactly as Core Data's `NSPropertyDescription.versionHash`.
    public var versionHash: Data { CoreDataVersionHash.of(self) }
}

extension ManagedObjectModel {
    /// Every entity's ``EntityDescription/versionHash`` by entity name, as Core Data's
    /// `entityVersionHashesByName` — what a Core Data store keeps as
    /// `NSStoreModelVersionHashes` for the model that wrote it.
    ///
    /// ```swift
    /// let model = try ManagedObjectModel(contentsOf: modelURL)
    /// let compatible = model.entityVersionHashesByName == storeHashes
    /// ```
    public var entityVersionHashesByName: [String: Data] {
        Dictionary(entities.map { ($0.name, $0.versionHash) }, uniquingKeysWith: { first, _ in first })
    }
}
