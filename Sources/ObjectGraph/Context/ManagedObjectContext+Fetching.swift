import Foundation

extension ManagedObjectContext {
    /// Runs `request` and returns its results: objects, IDs, dictionaries or a count, by the
    /// request's ``FetchRequest/resultType``.
    ///
    /// Objects, IDs and counts include the context's unsaved changes by default (an unsaved
    /// insert that matches is returned, an unsaved delete is not); dictionary results read the
    /// store only, as in Core Data.
    ///
    /// - Throws: the predicate's ``FetchPredicateError`` (parse error, unknown key, unbound
    ///   variable), ``ObjectGraphError`` for an unknown entity or sort key, or a store error
    ///   with its ``ObjectGraphError/cause`` — also one kept from a store read a property
    ///   getter could not throw (see ``ObjectsDidChange/readFailures``).
    public func fetch<T>(_ request: FetchRequest<T>) throws -> [T] {
        do {
            return try fetchUnlabelled(request)
        } catch let error as FetchPredicateError {
            throw error.withFormat(request.predicate?.predicateFormat)
        }
    }

    private func fetchUnlabelled<T>(_ request: FetchRequest<T>) throws -> [T] {
        assertOnQueue()
        processPendingChanges()
        try throwUnreportedStoreErrors()
        let (entity, descriptor) = try prepare(request)
        switch request.resultType {
        case .managedObjectResultType:
            let objects: [ManagedObject]
            if request.fetchBatchSize > 0 || !request.includesPropertyValues,
                let ids = try idsWithoutLoading(entity, descriptor, includePending: request.includesPendingChanges)
            {
                // IDs only: faults, filled one batch at a time (or one by one without a batch size).
                objects = faults(for: consume ids, batchSize: request.fetchBatchSize)
            } else if let keyPaths = request.relationshipKeyPathsForPrefetching, !keyPaths.isEmpty {
                // Prefetching reads the fetched objects' relationships: they come loaded.
                objects = try fetchObjects(entity, descriptor, includePending: request.includesPendingChanges)
                try prefetchRelationships(keyPaths, of: objects)
            } else {
                objects = try fetchObjects(
                    entity,
                    descriptor,
                    includePending: request.includesPendingChanges,
                    asFaults: request.returnsObjectsAsFaults
                )
            }
            // Objects of the entity's own class need no cast each: check the class once (and
            // that `T` is a class reference, not an existential such as `FetchRequestResult`).
            let entityClass = entity.managedObjectClass
            if MemoryLayout<T>.size == MemoryLayout<ManagedObject>.size, entityClass is T.Type,
                objects.allSatisfy({ type(of: $0) == entityClass })
            {
                return unsafeBitCast(objects, to: [T].self)
            }
            return try objects.map { object in
                guard let result = object as? T else {
                    throw ObjectGraphError(
                        .typeMismatch,
                        "fetched a \(type(of: object)) (entity \(object.entity.name)) that is not a \(T.self); bind the entity's managedObjectClass"
                    )
                }
                return result
            }
        case .managedObjectIDResultType:
            let ids = try matchingIDs(entity, descriptor, includePending: request.includesPendingChanges)
            if T.self == ManagedObjectID.self { return unsafeBitCast(ids, to: [T].self) }
            guard let results = ids as? [T] else {
                throw ObjectGraphError(
                    .typeMismatch,
                    "a managedObjectIDResultType request must be a FetchRequest<ManagedObjectID>, not FetchRequest<\(T.self)>"
                )
            }
            return results
        case .countResultType:
            let count = try self.count(entity, descriptor, includePending: request.includesPendingChanges)
            guard let result = NSNumber(value: count) as? T else {
                throw ObjectGraphError(.typeMismatch, "a countResultType request must be a FetchRequest<NSNumber>")
            }
            return [result]
        case .dictionaryResultType:
            guard let results = try fetchDictionaries(request, entity: entity, descriptor: descriptor) as? [T] else {
                throw ObjectGraphError(.typeMismatch, "a dictionaryResultType request must be a FetchRequest<[String: Any]>")
            }
            return results
        }
    }

    /// The number of objects `request` would return (limit and offset applied).
    ///
    /// - Throws: as ``fetch(_:)``.
    public func count<T>(for request: FetchRequest<T>) throws -> Int {
        assertOnQueue()
        processPendingChanges()
        try throwUnreportedStoreErrors()
        do {
            let (entity, descriptor) = try prepare(request)
            return try count(entity, descriptor, includePending: request.includesPendingChanges)
        } catch let error as FetchPredicateError {
            throw error.withFormat(request.predicate?.predicateFormat)
        }
    }

    // MARK: Internals

    func store() throws -> any ObjectStore {
        guard let store = parentStore else {
            throw ObjectGraphError(.noPersistentStore, "the context has no persistent store; load the container's stores first")
        }
        return store
    }

    func prepare<T>(_ request: FetchRequest<T>) throws -> (EntityDescription, FetchDescriptor) {
        guard let name = request.entityName else {
            throw ObjectGraphError(.entityNotFound, "the fetch request has no entity name")
        }
        guard let entity = model?.entity(named: name) else {
            throw ObjectGraphError(.entityNotFound, "the model has no entity named '\(name)'")
        }
        var node: PredicateNode?
        if let predicate = request.predicate {
            if let error = predicate.error { throw error }
            node = predicate.node
        }
        // A grouped or aggregating dictionary fetch sorts its results, by their keys.
        let sorts = request.groupsOrAggregates ? [] : request.sortDescriptors ?? []
        if request.propertiesToGroupBy?.isEmpty == false, request.resultType != .dictionaryResultType {
            throw ObjectGraphError(.invalidRequest, "propertiesToGroupBy needs resultType dictionaryResultType, as in Core Data")
        }
        for sort in sorts {
            guard let key = sort.key else { continue }
            try checkSortKeyPath(key, from: entity)
        }
        if request.fetchLimit < 0 || request.fetchOffset < 0 {
            throw ObjectGraphError(.invalidRequest, "fetchLimit and fetchOffset cannot be negative")
        }
        var descriptor = FetchDescriptor(
            entity: entity.name,
            predicate: node,
            sortDescriptors: sorts,
            fetchLimit: request.groupsOrAggregates ? 0 : request.fetchLimit,
            fetchOffset: request.groupsOrAggregates ? 0 : request.fetchOffset,
            includesSubentities: request.includesSubentities
        )
        // The plan is compiled by the first fetch and kept by the store under the request's
        // key; without a store, the fetch throws `noPersistentStore` where it first reads.
        if let store = parentStore {
            let key = request.groupsOrAggregates ? request.planKey.unsorted : request.planKey
            descriptor.plan = try store.cachedFetchPlan(for: descriptor, key: key)
        }
        return (entity, descriptor)
    }

    private func checkSortKeyPath(_ keyPath: String, from entity: EntityDescription) throws {
        if try entity.propertyAlongToOnePath(keyPath, for: "cannot sort by").isTransient {
            throw ObjectGraphError(.invalidRequest, "cannot sort a fetch by '\(keyPath)': it is transient (not stored)")
        }
    }

    /// Whether the context holds unsaved changes to objects of `entity`'s inheritance tree.
    func hasPendingChanges(in entity: EntityDescription) -> Bool {
        let root = entity.rootEntity
        return registry.changed.contains { $0.entity.rootEntity === root }
    }

    /// Whether unsaved changes can change what `descriptor` returns: changes to objects of
    /// `entity`, or to any object when the predicate or a sort key reads related objects.
    private func pendingChangesAffect(_ entity: EntityDescription, _ descriptor: FetchDescriptor) -> Bool {
        if hasPendingChanges(in: entity) { return true }
        return !registry.changed.isEmpty && readsRelatedObjects(entity, descriptor)
    }

    /// Whether the predicate or a sort key reads more than the fetched objects' own rows: a
    /// key path through a relationship, a to-many relationship, an aggregate, a subquery. A
    /// to-one relationship compared as an object reads only the object's own foreign key.
    private func readsRelatedObjects(_ entity: EntityDescription, _ descriptor: FetchDescriptor) -> Bool {
        if descriptor.sortDescriptors.contains(where: { $0.key?.contains(".") == true }) { return true }
        guard let predicate = descriptor.predicate else { return false }
        func local(_ expression: ExpressionNode) -> Bool {
            switch expression {
            case .constant, .evaluatedObject, .unsupported: return true
            case .array(let items): return items.allSatisfy(local)
            case .arithmetic(_, let lhs, let rhs): return local(lhs) && local(rhs)
            case .function(_, let arguments): return arguments.allSatisfy(local)
            case .keyPath(.evaluatedObject, let key):
                guard let slot = entity.slotByName[key] else { return true }
                return (entity.allProperties[slot] as? RelationshipDescription)?.isToMany != true
            default: return false
            }
        }
        func local(_ node: PredicateNode) -> Bool {
            switch node {
            case .constant, .unsupported: return true
            case .not(let inner): return local(inner)
            case .and(let parts), .or(let parts): return parts.allSatisfy(local)
            case .comparison(let comparison): return local(comparison.lhs) && local(comparison.rhs)
            }
        }
        return !local(predicate)
    }

    /// The matching IDs read from the store without loading rows, or `nil` when the objects
    /// must be loaded to decide (unsaved changes that can change the result, or a predicate
    /// evaluated in memory).
    /// The IDs `descriptor` matches: read from the store alone, or from loaded objects when
    /// unsaved changes can change the result or the predicate is evaluated in memory.
    func matchingIDs(_ entity: EntityDescription, _ descriptor: FetchDescriptor, includePending: Bool) throws -> [ManagedObjectID] {
        let pending = includePending && pendingChangesAffect(entity, descriptor)
        if pending || descriptor.needsInMemoryEvaluation {
            return try fetchObjects(entity, descriptor, includePending: includePending, pendingChangesAffect: pending).map(\.objectID)
        }
        return try store().objectIDs(matching: descriptor)
    }

    private func idsWithoutLoading(_ entity: EntityDescription, _ descriptor: FetchDescriptor, includePending: Bool) throws -> [ManagedObjectID]? {
        if includePending && pendingChangesAffect(entity, descriptor) { return nil }
        if descriptor.needsInMemoryEvaluation { return nil }
        return try store().objectIDs(matching: descriptor)
    }

    func count(_ entity: EntityDescription, _ descriptor: FetchDescriptor, includePending: Bool) throws -> Int {
        if includePending && pendingChangesAffect(entity, descriptor) {
            return try fetchObjects(entity, descriptor, includePending: true, pendingChangesAffect: true).count
        }
        if descriptor.needsInMemoryEvaluation {
            return try fetchObjects(entity, descriptor, includePending: false).count
        }
        return try store().count(matching: descriptor)
    }

    /// Fetches objects, merging in the context's unsaved changes when asked.
    ///
    /// When the predicate has no SQL form (the request's plan says so), every object of the
    /// entity is read and the predicate is evaluated in memory, with the same result.
    ///
    /// `pendingChangesAffect`, when the caller already knows it, spares scanning the changed
    /// objects again. With `asFaults` (`returnsObjectsAsFaults`), objects the store alone
    /// matched come as faults holding their rows, as Core Data's do (a store that cannot keep
    /// rows for faults — a parent context — returns them loaded); objects the predicate was
    /// evaluated on in memory are loaded anyway.
    func fetchObjects(
        _ entity: EntityDescription,
        _ descriptor: FetchDescriptor,
        includePending: Bool,
        pendingChangesAffect known: Bool? = nil,
        asFaults: Bool = false
    ) throws -> [ManagedObject] {
        let store = try store()
        let pending = includePending && (known ?? pendingChangesAffect(entity, descriptor))
        if !pending {
            if descriptor.needsInMemoryEvaluation {
                return try fetchFilteringInMemory(entity, descriptor, includePending: includePending, evaluateAll: true)
            }
            // The generation is read before the query: a save committed meanwhile makes the
            // kept rows stale, and the faults read their rows again.
            let stamp = asFaults ? store.snapshotGeneration.map(FetchStamp.init(generation:)) : nil
            let rows = try store.rows(matching: descriptor)
            registry.reserveCapacity(forAdditional: rows.count)
            return rows.map { registerFetched($0, asFaultAt: stamp) }
        }
        // An unchanged object can match differently once a related object changed (a renamed
        // tag, a photographer's new photo): then every object is evaluated in memory.
        let evaluateAll = descriptor.needsInMemoryEvaluation || readsRelatedObjects(entity, descriptor)
        return try fetchFilteringInMemory(entity, descriptor, includePending: true, evaluateAll: evaluateAll)
    }

    /// Reads the store without limit (and, with `evaluateAll`, without predicate), then applies
    /// the predicate in memory to changed (or all) objects, sorts, and applies offset and limit.
    private func fetchFilteringInMemory(
        _ entity: EntityDescription,
        _ descriptor: FetchDescriptor,
        includePending: Bool,
        evaluateAll: Bool
    ) throws -> [ManagedObject] {
        var unbounded = descriptor
        unbounded.fetchLimit = 0
        unbounded.fetchOffset = 0
        if evaluateAll { unbounded.appliesPredicate = false }
        let fetched = try store().rows(matching: unbounded).map(registerFetched)
        var seen = Set<ManagedObjectID>()
        var results: [ManagedObject] = []
        let predicate = descriptor.predicate.map { FetchPredicate(node: $0) }
        func matches(_ object: ManagedObject) throws -> Bool {
            guard let predicate else { return true }
            return try predicate.evaluate(with: object)
        }
        for object in fetched where !(includePending && object.isDeleted) && !object.storage.flags.contains(.gone) {
            seen.insert(object.objectID)
            if evaluateAll || (includePending && object.hasChanges), try !matches(object) { continue }
            results.append(object)
        }
        if includePending {
            for object in registry.changed.values where !seen.contains(object.objectID) && !object.isDeleted && !object.storage.flags.contains(.gone) {
                guard descriptor.includesSubentities ? object.entity.isKindOf(entity: entity) : object.entity === entity else { continue }
                if try matches(object) { results.append(object) }
            }
        }
        results = sort(results, by: descriptor.sortDescriptors)
        if descriptor.fetchOffset > 0 { results = Array(results.dropFirst(descriptor.fetchOffset)) }
        if descriptor.fetchLimit > 0 { results = Array(results.prefix(descriptor.fetchLimit)) }
        return results
    }

    /// Sorts objects as the store would: by each descriptor, then by primary key.
    func sort(_ objects: [ManagedObject], by descriptors: [FetchSortDescriptor]) -> [ManagedObject] {
        FetchSortOrder(descriptors: descriptors).sorted(objects)
    }
}
