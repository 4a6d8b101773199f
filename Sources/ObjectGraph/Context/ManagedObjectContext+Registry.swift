import Foundation

// Registration: the objects a context stands for, one per ID, kept by its ContextRegistry; a
// fetched row becomes an object here (or refreshes the one registered).

extension ManagedObjectContext {
    /// The objects registered in the context.
    public var registeredObjects: Set<ManagedObject> {
        assertOnQueue()
        return Set(registry.objects)
    }

    /// The registered object with `objectID`, or `nil`.
    public func registeredObject(for objectID: ManagedObjectID) -> ManagedObject? {
        assertOnQueue()
        return registry[objectID]
    }

    /// The object with `objectID`: the registered one, or a fault that loads on first access.
    ///
    /// Does no I/O. If no such object exists, reading the fault gives `nil` values.
    public func object(with objectID: ManagedObjectID) -> ManagedObject {
        assertOnQueue()
        if let object = registry[objectID] { return object }
        return registerFault(with: objectID)
    }

    /// A new fault registered under `objectID` (``object(with:)``'s rarer path, kept out of
    /// line so that the lookup inlines into relationship reads).
    @inline(never)
    private func registerFault(with objectID: ManagedObjectID) -> ManagedObject {
        guard let entity = entity(of: objectID) else {
            preconditionFailure("ObjectGraph: object(with:) got \(objectID), whose entity is not in this context's model")
        }
        let object = registerNewObject(of: entity, id: objectID)
        object.storage.becomeFault()
        return object
    }

    /// The object with `objectID`, loaded; throws when no such object exists.
    ///
    /// - Throws: ``ObjectGraphError`` with code ``ObjectGraphError/Code/objectNotFound``.
    public func existingObject(with objectID: ManagedObjectID) throws -> ManagedObject {
        assertOnQueue()
        guard model?.entity(named: objectID.entityName) != nil else {
            throw ObjectGraphError(.objectNotFound, "no object with ID \(objectID): its entity is not in the model")
        }
        let object = self.object(with: objectID)
        if object.isFault { try loadFault(object) }
        if object.storage.flags.contains(.gone) {
            throw ObjectGraphError(.objectNotFound, "no object with ID \(objectID) exists in the store")
        }
        return object
    }

    /// The entity whose `managedObjectClass` is `type`.
    func entityBound(to type: ManagedObject.Type) -> EntityDescription? {
        registry.entityBound(to: type, in: model)
    }

    /// Registers a row fetched from the store as an object, reusing a registered one.
    func registerFetched(_ row: StoredRow) -> ManagedObject {
        registerFetched(row, asFaultAt: nil)
    }

    /// Registers a fetched row as an object; with a `stamp` (`returnsObjectsAsFaults`: the store
    /// generation the rows were read at), a new or still-faulted object stays a fault that keeps
    /// the row, and fills from it on first access without a query while the store is still at
    /// that generation.
    func registerFetched(_ row: StoredRow, asFaultAt stamp: FetchStamp?) -> ManagedObject {
        if let object = registry[row.id] {
            if object.isFault {
                fillFetched(object, with: row, asFaultAt: stamp)
            } else if !object.hasChanges && row.version != object.storage.version {
                apply(row, to: object, keepingChanges: false)
            }
            return object
        }
        guard let entity = entity(of: row.id) else {
            preconditionFailure("ObjectGraph: the store returned a row of unknown entity \(row.id.entityName)")
        }
        let object = registerNewObject(of: entity, id: row.id)
        if stamp != nil { object.storage.becomeFault() }
        fillFetched(object, with: row, asFaultAt: stamp)
        return object
    }

    /// Loads a fetched row into a fault, or (with a `generation`) leaves it a fault keeping the row.
    private func fillFetched(_ object: ManagedObject, with row: StoredRow, asFaultAt stamp: FetchStamp?) {
        if let stamp {
            object.storage.holdFetchedRow(row, stamp: stamp)
        } else {
            apply(row, to: object, keepingChanges: false)
            object.awakeFromFetch()
        }
    }

    /// The entity of `id` in the context's model (the last one found is remembered: a fetch
    /// registers rows of one entity after another).
    @inline(__always)
    func entity(of id: ManagedObjectID) -> EntityDescription? {
        registry.entity(of: id, in: model)
    }

    /// A new instance of `entity`'s class for the stored object `id`, registered in this context.
    private func registerNewObject(of entity: EntityDescription, id: ManagedObjectID) -> ManagedObject {
        let object = entity.managedObjectClass.init(entity: entity, insertInto: nil)
        object.objectID = id
        object.managedObjectContext = self
        registry.register(object)
        return object
    }
}
