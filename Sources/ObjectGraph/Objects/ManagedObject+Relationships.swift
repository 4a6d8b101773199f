import Foundation

extension ManagedObject {
    /// Adds `object` to the to-many relationship `key`, updating the inverse at once.
    ///
    /// - Throws: ``ObjectGraphError`` for an unknown key, a to-one key, an object of the wrong
    ///   entity, or an object in another context.
    public func addObject(_ object: ManagedObject, toRelationship key: String) throws {
        let (relationship, slot) = try toManyRelationship(key)
        try checkDestination(object, of: relationship)
        try fulfillForWrite(key: key)
        if let inverse = relationship.inverseRelationship { try object.fulfillForWrite(key: inverse.name) }
        addMember(object, relationship: relationship, slot: slot)
    }

    /// Removes `object` from the to-many relationship `key`, updating the inverse at once.
    public func removeObject(_ object: ManagedObject, fromRelationship key: String) throws {
        let (relationship, slot) = try toManyRelationship(key)
        try checkDestination(object, of: relationship)
        try fulfillForWrite(key: key)
        if let inverse = relationship.inverseRelationship { try object.fulfillForWrite(key: inverse.name) }
        removeMember(object, relationship: relationship, slot: slot)
    }

    /// A mutable view of the to-many relationship `key`, as Core Data's `mutableSetValue(forKey:)`
    /// (also for ordered relationships, Core Data's `mutableOrderedSetValue(forKey:)`).
    ///
    /// Traps for a key that is not a to-many relationship (a programming error).
    public func mutableSetValue(forKey key: String) -> RelationshipMutableSet {
        do {
            _ = try toManyRelationship(key)
        } catch {
            preconditionFailure("ObjectGraph: \(error)")
        }
        return RelationshipMutableSet(owner: self, key: key)
    }

    /// Core Data's name for ``mutableSetValue(forKey:)`` on ordered relationships.
    public func mutableOrderedSetValue(forKey key: String) -> RelationshipMutableSet {
        mutableSetValue(forKey: key)
    }

    // MARK: Internals

    private func toManyRelationship(_ key: String) throws -> (RelationshipDescription, Int) {
        assertOnContextQueue()
        guard let slot = entity.slotByName[key], let relationship = entity.allProperties[slot] as? RelationshipDescription else {
            throw ObjectGraphError(
                .unknownKey,
                "\(entity.name) has no relationship '\(key)'",
                failures: [failure(key: key, "the entity has no relationship '\(key)'")]
            )
        }
        guard relationship.isToMany else {
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(key) is a to-one relationship; set it with setValue(_:forKey:)",
                failures: [failure(key: key, "expected a to-one value")]
            )
        }
        return (relationship, slot)
    }

    private func checkDestination(_ object: ManagedObject, of relationship: RelationshipDescription) throws {
        guard let destination = relationship.destinationEntity, object.entity.isKindOf(entity: destination) else {
            let message = "expected \(relationship.destinationEntity?.name ?? "?"), got \(object.entity.name)"
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(relationship.name) \(message)",
                failures: [failure(key: relationship.name, message)]
            )
        }
        guard let context = managedObjectContext, object.managedObjectContext === context else {
            let message = "cannot relate objects in different contexts (or not in a context)"
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(relationship.name): \(message)",
                failures: [failure(key: relationship.name, message)]
            )
        }
        if object.storage.flags.contains(.gone) {
            throw ObjectGraphError(.objectNotFound, "\(entity.name).\(relationship.name): \(object.objectID) was deleted")
        }
    }

    /// Sets relationship `relationship` (in `slot`) to `value`, keeping inverses in step.
    func setRelationship(_ relationship: RelationshipDescription, slot: Int, to value: Any?) throws {
        fulfillIfNeeded()
        if !relationship.isToMany {
            guard let value else { return setToOne(relationship, slot: slot, to: nil) }
            guard let object = value as? ManagedObject else {
                let message = "expected \(relationship.destinationEntity?.name ?? "a managed object"), got \(type(of: value))"
                throw ObjectGraphError(
                    .typeMismatch,
                    "\(entity.name).\(relationship.name) \(message)",
                    failures: [failure(key: relationship.name, message)]
                )
            }
            try checkDestination(object, of: relationship)
            return setToOne(relationship, slot: slot, to: object)
        }
        let objects: [ManagedObject]
        switch value {
        case nil: objects = []
        case let set as Set<ManagedObject>: objects = set.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        case let array as [ManagedObject]: objects = array
        case let mutable as RelationshipMutableSet: objects = mutable.allObjects
        default:
            let message = "expected a Set or an Array of \(relationship.destinationEntity?.name ?? "managed objects"), got \(type(of: value!))"
            throw ObjectGraphError(
                .typeMismatch,
                "\(entity.name).\(relationship.name) \(message)",
                failures: [failure(key: relationship.name, message)]
            )
        }
        for object in objects { try checkDestination(object, of: relationship) }
        let wanted = Set(objects.map(\.objectID))
        let current = toManyMembers(at: slot)
        for id in current where !wanted.contains(id) {
            if let object = managedObjectContext?.object(with: id) { removeMember(object, relationship: relationship, slot: slot) }
        }
        for object in objects { addMember(object, relationship: relationship, slot: slot) }
        if relationship.isOrdered {
            let order = objects.map(\.objectID)
            if storage.toMany[slot]?.members != order {
                storage.toMany[slot]?.members = order
                storage.toMany[slot]?.orderChanged = true
                markRelationshipChanged(slot)
            }
        }
    }

    /// Takes the members of a to-many relationship read ahead of use (prefetching), unless
    /// they are loaded already; changes made meanwhile are replayed on top.
    func loadPrefetchedMembers(_ stored: [ManagedObjectID], at slot: Int) {
        if storage.hasLoadedMembers(at: slot) { return }
        storage.toMany[slot, default: ToManyState()].load(stored)
    }

    /// Whether a to-many relationship's members are loaded (or need no store read: inserted).
    func hasLoadedMembers(at slot: Int) -> Bool {
        storage.hasLoadedMembers(at: slot) || storage.flags.contains(.inserted)
    }

    /// The IDs in a to-many relationship, loading them from the store on first use.
    func toManyMembers(at slot: Int) -> [ManagedObjectID] {
        if let members = storage.toMany[slot]?.members { return members }
        var state = storage.toMany[slot] ?? ToManyState()
        let stored: [ManagedObjectID]
        if storage.flags.contains(.inserted) || managedObjectContext == nil {
            stored = []
        } else if let loaded = managedObjectContext!.loadMembers(of: self, slot: slot) {
            stored = loaded
        } else {
            // The store could not be read (reported to the context): give the changes made
            // here, and leave the relationship unloaded so the next access reads again.
            state.load([])
            return state.members!
        }
        state.load(stored)
        storage.toMany[slot] = state
        return state.members!
    }

    private func setToOne(_ relationship: RelationshipDescription, slot: Int, to object: ManagedObject?) {
        let oldID: ManagedObjectID? = if case .objectID(let id) = storage.values[slot] { id } else { nil }
        if oldID == object?.objectID { return }
        let context = managedObjectContext
        if let inverse = relationship.inverseRelationship {
            if let oldID, let old = context?.object(with: oldID) { old.detachInverse(inverse, from: self) }
            if let object { object.attachInverse(inverse, to: self, forwardRelationship: relationship) }
        }
        primitiveSetToOne(slot, object?.objectID)
    }

    func addMember(_ object: ManagedObject, relationship: RelationshipDescription, slot: Int) {
        if let state = storage.toMany[slot], state.isLoaded, state.memberSet.contains(object.objectID) { return }
        primitiveAddMember(slot, object.objectID)
        if let inverse = relationship.inverseRelationship {
            object.attachInverse(inverse, to: self, forwardRelationship: relationship)
        }
    }

    func removeMember(_ object: ManagedObject, relationship: RelationshipDescription, slot: Int) {
        primitiveRemoveMember(slot, object.objectID)
        if let inverse = relationship.inverseRelationship { object.detachInverse(inverse, from: self) }
    }

    /// Makes this object's `inverse` point back at `owner`, detaching it from a previous owner.
    private func attachInverse(_ inverse: RelationshipDescription, to owner: ManagedObject, forwardRelationship: RelationshipDescription) {
        fulfillIfNeeded()
        let inverseSlot = inverse.slotIndex(in: entity)
        guard inverseSlot >= 0 else { return }
        if inverse.isToMany {
            primitiveAddMember(inverseSlot, owner.objectID)
            return
        }
        if case .objectID(let previousID) = storage.values[inverseSlot] {
            if previousID == owner.objectID { return }
            // A to-one inverse moves: the previous owner loses this object.
            if let previous = managedObjectContext?.object(with: previousID) {
                let forwardSlot = forwardRelationship.slotIndex(in: previous.entity)
                if forwardSlot >= 0 {
                    previous.fulfillIfNeeded()
                    if forwardRelationship.isToMany {
                        previous.primitiveRemoveMember(forwardSlot, objectID)
                    } else {
                        previous.primitiveSetToOne(forwardSlot, nil)
                    }
                }
            }
        }
        primitiveSetToOne(inverseSlot, owner.objectID)
    }

    /// Removes `owner` from this object's `inverse`.
    func detachInverse(_ inverse: RelationshipDescription, from owner: ManagedObject) {
        fulfillIfNeeded()
        if storage.flags.contains(.gone) { return }
        let inverseSlot = inverse.slotIndex(in: entity)
        guard inverseSlot >= 0 else { return }
        if inverse.isToMany {
            primitiveRemoveMember(inverseSlot, owner.objectID)
        } else if case .objectID(let id) = storage.values[inverseSlot], id == owner.objectID {
            primitiveSetToOne(inverseSlot, nil)
        }
    }

    func primitiveSetToOne(_ slot: Int, _ id: ManagedObjectID?) {
        setStored(id.map { .objectID($0) } ?? .null, at: slot)
    }

    func primitiveAddMember(_ slot: Int, _ id: ManagedObjectID) {
        storage.toMany[slot, default: ToManyState()].add(id)
        markRelationshipChanged(slot)
    }

    func primitiveRemoveMember(_ slot: Int, _ id: ManagedObjectID) {
        storage.toMany[slot, default: ToManyState()].remove(id)
        markRelationshipChanged(slot)
    }

    func markRelationshipChanged(_ slot: Int) {
        storage.markChanged(slot)
        managedObjectContext?.noteChanged(self)
    }
}

/// A live, mutable view of a to-many relationship, as Core Data's `NSMutableSet` proxy.
///
/// Changes go straight to the owning object, inverses included. Use it on the owner's queue.
public final class RelationshipMutableSet: Sequence {
    private let owner: ManagedObject
    private let key: String

    init(owner: ManagedObject, key: String) {
        self.owner = owner
        self.key = key
    }

    /// The related objects (in order for an ordered relationship).
    public var allObjects: [ManagedObject] {
        switch owner.value(forKey: key) {
        case let array as [ManagedObject]: array
        case let set as Set<ManagedObject>: set.sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
        default: []
        }
    }
    /// How many objects the relationship holds.
    public var count: Int { allObjects.count }
    /// Whether the relationship holds `object`.
    public func contains(_ object: ManagedObject) -> Bool { allObjects.contains { $0 === object } }
    /// Adds `object`; traps for an object of the wrong entity or context (a programming error).
    public func add(_ object: ManagedObject) { perform { try owner.addObject(object, toRelationship: key) } }
    /// Removes `object`.
    public func remove(_ object: ManagedObject) { perform { try owner.removeObject(object, fromRelationship: key) } }
    /// Adds every object of `objects`.
    public func union(_ objects: some Sequence<ManagedObject>) { for object in objects { add(object) } }
    /// Removes every object of `objects`.
    public func minus(_ objects: some Sequence<ManagedObject>) { for object in objects { remove(object) } }
    /// Removes every object.
    public func removeAllObjects() { minus(allObjects) }

    /// Iterates over the related objects.
    public func makeIterator() -> IndexingIterator<[ManagedObject]> { allObjects.makeIterator() }

    private func perform(_ change: () throws -> Void) {
        do { try change() } catch { preconditionFailure("ObjectGraph: \(error)") }
    }
}
