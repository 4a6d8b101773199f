import Foundation

/// Checks a model before it is frozen and compiles what the runtime needs (slots, entity codes,
/// resolved relationships), collecting every problem instead of stopping at the first.
struct ModelChecker {
    let model: ManagedObjectModel
    private(set) var issues: [ModelIssue] = []
    private(set) var warnings: [ModelIssue] = []

    /// Names a property cannot take: the members ``ManagedObject`` itself declares without
    /// arguments (its identity, state and lifecycle), and `self`, which a key path and a
    /// predicate read as the object itself.
    ///
    /// Only what really clashes with ObjectGraph is reserved. Core Data loads models with
    /// `deleted`, `inserted`, `updated`, `fault`, `hash` or `class` (Simplenote's `Note` has
    /// `deleted`): ObjectGraph's members are `isDeleted` and the like, key-value access uses the
    /// model's names as they are, and a typed accessor whose Swift name would clash can be
    /// renamed with `@Managed("key") var otherName`. Words that are only Swift names (`type`,
    /// `value`, `count`, `index`, …) are legal too.
    static let reservedPropertyNames: Set<String> = [
        "self",
        // ManagedObject's properties
        "objectID", "entity", "managedObjectContext", "isFault", "isInserted", "isDeleted",
        "isUpdated", "hasChanges", "hasPersistentChangedValues", "description",
        // ManagedObject's methods without arguments
        "awakeFromInsert", "awakeFromFetch", "willSave", "didSave", "prepareForDeletion",
        "willTurnIntoFault", "didTurnIntoFault", "validateForInsert", "validateForUpdate",
        "validateForDelete", "changedValues",
    ]

    init(model: ManagedObjectModel) { self.model = model }

    mutating func check() throws {
        let entities = model.entities
        var byName: [String: EntityDescription] = [:]
        for entity in entities {
            if entity.name.isEmpty || !isIdentifier(entity.name) {
                fail(entity.name.isEmpty ? "(unnamed)" : entity.name, nil, "an entity needs a name made of letters, digits and underscores")
            }
            if byName[entity.name] != nil { fail(entity.name, nil, "duplicate entity name") }
            byName[entity.name] = entity
        }
        resolveInheritance(entities, byName: byName)
        for (index, entity) in Self.coreDataEntityOrder(entities).enumerated() { entity.entityCode = index + 1 }
        for entity in orderedTopDown(entities) { compileProperties(of: entity) }
        for entity in entities {
            for case let relationship as RelationshipDescription in entity.properties {
                resolve(relationship, in: entity, byName: byName)
            }
        }
        for entity in entities {
            for case let attribute as AttributeDescription in entity.properties { compile(attribute, in: entity) }
            checkConstraints(of: entity)
            entity.fetchableEntityCodes = entities.filter { $0.isKindOf(entity: entity) }.map(\.entityCode).sorted()
        }
        if !issues.isEmpty { throw ManagedObjectModelError(issues: issues) }
    }

    private mutating func fail(_ entity: String, _ property: String?, _ message: String) {
        issues.append(ModelIssue(entity: entity, property: property, message: message))
    }

    private func isIdentifier(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first == "_" || CharacterSet.letters.contains(first) else { return false }
        return name.unicodeScalars.allSatisfy { $0 == "_" || CharacterSet.alphanumerics.contains($0) }
    }

    private mutating func resolveInheritance(_ entities: [EntityDescription], byName: [String: EntityDescription]) {
        for entity in entities {
            if let parentName = entity.superentityName, entity.superentityStorage == nil || entity.superentityStorage?.name != parentName {
                guard let parent = byName[parentName] else {
                    fail(entity.name, nil, "unknown parent entity '\(parentName)'")
                    continue
                }
                entity.superentityStorage = parent
                if !parent.subentities.contains(where: { $0 === entity }) {
                    parent.subentitiesAppendDuringFreeze(entity)
                }
            }
            if let parent = entity.superentity, byName[parent.name] !== parent {
                fail(entity.name, nil, "parent entity '\(parent.name)' is not in the model")
            }
            var seen: Set<ObjectIdentifier> = [ObjectIdentifier(entity)]
            var current = entity.superentity
            while let ancestor = current {
                if !seen.insert(ObjectIdentifier(ancestor)).inserted {
                    fail(entity.name, nil, "entity inheritance forms a cycle")
                    entity.superentityStorage = nil
                    break
                }
                current = ancestor.superentity
            }
        }
    }

    /// Entities in the order Core Data numbers them (`Z_ENT`, from 1): root entities by name,
    /// case-insensitively, each followed by its subentities, depth first, ordered the same way —
    /// so a model gets the numbers Core Data gave the same model in its stores.
    static func coreDataEntityOrder(_ entities: [EntityDescription]) -> [EntityDescription] {
        func byName(_ lhs: EntityDescription, _ rhs: EntityDescription) -> Bool {
            let order = lhs.name.caseInsensitiveCompare(rhs.name)
            return order == .orderedSame ? lhs.name < rhs.name : order == .orderedAscending
        }
        let known = Set(entities.map(ObjectIdentifier.init))
        var children: [ObjectIdentifier: [EntityDescription]] = [:]
        var roots: [EntityDescription] = []
        for entity in entities {
            if let parent = entity.superentity, known.contains(ObjectIdentifier(parent)) {
                children[ObjectIdentifier(parent), default: []].append(entity)
            } else {
                roots.append(entity)
            }
        }
        var ordered: [EntityDescription] = []
        var placed: Set<ObjectIdentifier> = []
        func visit(_ entity: EntityDescription) {
            guard placed.insert(ObjectIdentifier(entity)).inserted else { return }
            ordered.append(entity)
            for child in (children[ObjectIdentifier(entity)] ?? []).sorted(by: byName) { visit(child) }
        }
        for root in roots.sorted(by: byName) { visit(root) }
        // An inheritance cycle (already reported) leaves entities unreached: number them last.
        for entity in entities.sorted(by: byName) { visit(entity) }
        return ordered
    }

    private func orderedTopDown(_ entities: [EntityDescription]) -> [EntityDescription] {
        func depth(_ entity: EntityDescription) -> Int { entity.superentity.map { depth($0) + 1 } ?? 0 }
        return entities.sorted { depth($0) < depth($1) }
    }

    private mutating func compileProperties(of entity: EntityDescription) {
        let inherited = entity.superentity?.allProperties ?? []
        var all = inherited
        var names = Set(inherited.map(\.name))
        for property in entity.properties {
            property.entity = entity
            if property.name.isEmpty || !isIdentifier(property.name) {
                fail(entity.name, property.name.isEmpty ? nil : property.name, "a property needs a name made of letters, digits and underscores")
            }
            if Self.reservedPropertyNames.contains(property.name) {
                fail(
                    entity.name,
                    property.name,
                    "'\(property.name)' clashes with a ManagedObject member of the same name (as with NSManagedObject's in Core Data); rename the property"
                )
            }
            if !names.insert(property.name).inserted {
                fail(entity.name, property.name, "duplicate property name (in the entity or inherited from its parent)")
            }
            all.append(property)
        }
        entity.allProperties = all
        entity.slotByName = [:]
        entity.attributeSlots = []
        entity.relationshipSlots = []
        for (slot, property) in all.enumerated() {
            if property.entity === entity { property.slot = slot }
            entity.slotByName[property.name] = slot
            if property is AttributeDescription { entity.attributeSlots.append(slot) } else { entity.relationshipSlots.append(slot) }
        }
    }

    private mutating func resolve(_ relationship: RelationshipDescription, in entity: EntityDescription, byName: [String: EntityDescription]) {
        let name = relationship.name
        guard let destinationName = relationship.destinationEntityName ?? relationship.destinationEntity?.name else {
            fail(entity.name, name, "the relationship has no destination entity")
            return
        }
        guard let destination = byName[destinationName], relationship.destinationEntity.map({ $0 === destination }) ?? true else {
            fail(entity.name, name, "unknown destination entity '\(destinationName)'")
            return
        }
        if relationship.maxCount < 0 || relationship.minCount < 0 || (relationship.maxCount > 0 && relationship.minCount > relationship.maxCount) {
            fail(entity.name, name, "minCount \(relationship.minCount) and maxCount \(relationship.maxCount) do not make a valid range")
        }
        if relationship.isOrdered && !relationship.isToMany {
            fail(entity.name, name, "only a to-many relationship can be ordered")
        }
        var inverse: RelationshipDescription?
        if let inverseName = relationship.inverseName {
            inverse = destination.allProperties.first { $0.name == inverseName } as? RelationshipDescription
            if inverse == nil {
                fail(entity.name, name, "inverse '\(inverseName)' is not a relationship of '\(destination.name)'")
            }
        }
        relationship.resolve(destination: destination, inverse: inverse)
        guard let inverse else {
            if relationship.inverseName == nil {
                warnings.append(
                    ModelIssue(
                        entity: entity.name,
                        property: name,
                        message: "has no inverse relationship; the object graph cannot keep the other side in step"
                    )
                )
            }
            return
        }
        let inverseDestination = inverse.destinationEntityName ?? inverse.destinationEntity?.name
        if let inverseDestination, let target = byName[inverseDestination], !entity.isKindOf(entity: target) {
            fail(entity.name, name, "inverse '\(destination.name).\(inverse.name)' points to '\(inverseDestination)', not to '\(entity.name)'")
        }
        if let back = inverse.inverseName, back != name {
            fail(entity.name, name, "inverse '\(destination.name).\(inverse.name)' names '\(back)' as its own inverse, not '\(name)'")
        }
    }

    private mutating func compile(_ attribute: AttributeDescription, in entity: EntityDescription) {
        let name = attribute.name
        func convert(_ value: Any?, _ what: String) -> Value {
            guard value != nil else { return .null }
            guard let stored = attribute.storedValue(from: value) else {
                fail(entity.name, name, "\(what) \(String(describing: value!)) is not a \(attribute.expectedValueDescription)")
                return .null
            }
            return stored
        }
        attribute.defaultStoredValue = convert(attribute.defaultValue, "default value")
        attribute.minStoredValue = convert(attribute.minValue, "minValue")
        attribute.maxStoredValue = convert(attribute.maxValue, "maxValue")
        if let pattern = attribute.regularExpression, (try? NSRegularExpression(pattern: pattern)) == nil {
            fail(entity.name, name, "regular expression '\(pattern)' does not compile")
        }
    }

    private mutating func checkConstraints(of entity: EntityDescription) {
        for constraint in entity.uniquenessConstraints {
            if constraint.isEmpty { fail(entity.name, nil, "an empty uniqueness constraint") }
            for key in constraint {
                guard let slot = entity.slotByName[key] else {
                    fail(entity.name, key, "uniqueness constraint names an unknown property")
                    continue
                }
                let property = entity.allProperties[slot]
                if property.isTransient || (property as? RelationshipDescription)?.isToMany == true {
                    fail(entity.name, key, "a uniqueness constraint can hold only stored attributes and to-one relationships")
                }
            }
        }
        for index in entity.indexes {
            for element in index.elements where entity.slotByName[element.propertyName] == nil {
                fail(entity.name, element.propertyName, "index '\(index.name)' names an unknown property")
            }
        }
    }
}

extension EntityDescription {
    /// Records a sub-entity found by name while freezing (the model is already locked).
    func subentitiesAppendDuringFreeze(_ entity: EntityDescription) {
        let wasFrozen = isFrozen
        isFrozen = false
        subentities.append(entity)
        isFrozen = wasFrozen
    }
}
