import Foundation

/// The working part of a ``FetchedResultsController``, shared by the controller the caller
/// holds and the type-erased views handed to the delegate.
final class FetchedResultsEngine {
    /// What the controller remembers of each fetched object: where it was sorted and filed.
    struct Placement {
        let keys: [Value]
        let section: String
    }

    let context: ManagedObjectContext
    let sectionNameKeyPath: String?
    /// The section key path, split once.
    let sectionPath: [String]?
    let cacheName: String?
    /// Builds the request to run, from the caller's request as it is at `performFetch()`.
    let makeRequest: () -> FetchRequest<ManagedObject>
    weak var delegate: (any FetchedResultsControllerDelegate)?
    /// Makes the controller view handed to the delegate.
    var makeDelegateView: () -> FetchedResultsController<any FetchRequestResult> = { preconditionFailure("no controller") }

    var content: FetchedContent
    private(set) var hasFetched = false
    var placements: [ManagedObjectID: Placement] = [:]
    private(set) var order = FetchSortOrder(descriptors: [])
    private(set) var entity: EntityDescription?
    private(set) var predicate: FetchPredicate?
    private(set) var includesSubentities = true
    private(set) var isLimited = false
    private(set) var dependencies: FetchedDependencies?
    private(set) var sortDescription = "[]"
    /// Set when a change could not be applied; cleared by the next `performFetch()`.
    private(set) var isSuspended = false
    private var observation: ContextObservation?
    private var replacementObservation: ContextObservation?
    private var flattened: [ManagedObject]?
    /// Changes whenever the content does, so views of it can cache.
    private(set) var contentVersion = 0

    init(context: ManagedObjectContext, sectionNameKeyPath: String?, cacheName: String?, makeRequest: @escaping () -> FetchRequest<ManagedObject>) {
        self.context = context
        self.sectionNameKeyPath = sectionNameKeyPath
        self.sectionPath = sectionNameKeyPath.map(FetchSortOrder.components)
        self.cacheName = cacheName
        self.makeRequest = makeRequest
        self.content = FetchedContent(isSectioned: sectionNameKeyPath != nil)
    }

    // MARK: Fetching

    func performFetch() throws {
        context.assertOnQueue()
        let request = makeRequest()
        guard let sorts = request.sortDescriptors, !sorts.isEmpty else {
            throw ObjectGraphError(
                .invalidRequest,
                "a fetched results controller needs a fetch request with at least one sort descriptor (entity \(request.entityName ?? "nil"))"
            )
        }
        guard let name = request.entityName, let entity = context.model?.entity(named: name) else {
            throw ObjectGraphError(.entityNotFound, "the model has no entity named '\(request.entityName ?? "nil")'")
        }
        if let sectionNameKeyPath { try Self.checkSectionKeyPath(sectionNameKeyPath, from: entity) }
        let objects = try context.fetch(request)
        let order = FetchSortOrder(descriptors: sorts)
        sortDescription = "[" + sorts.map(\.description).joined(separator: ", ") + "]"
        let (entries, names) = place(objects, in: order)
        content = try FetchedContent(sortedEntries: entries, sectionNames: names, describingSort: sortDescription)
        var placements: [ManagedObjectID: Placement] = [:]
        placements.reserveCapacity(entries.count)
        for (index, entry) in entries.enumerated() { placements[entry.id] = Placement(keys: entry.keys, section: names?[index] ?? "") }
        self.placements = placements
        self.order = order
        self.entity = entity
        self.predicate = request.predicate
        self.includesSubentities = request.includesSubentities
        self.isLimited = request.fetchLimit > 0 || request.fetchOffset > 0
        self.dependencies = FetchedDependencies(
            entity: entity,
            keyPaths: sorts.compactMap(\.key) + [sectionNameKeyPath].compactMap { $0 },
            predicate: request.predicate?.node
        )
        flattened = nil
        contentVersion &+= 1
        hasFetched = true
        isSuspended = false
        if observation == nil {
            observation = context.addObjectsDidChangeObserverIncludingUnregistered { [weak self] change in self?.contextDidChange(change) }
            replacementObservation = context.addObjectIDsReplacedObserver { [weak self] replaced in self?.objectIDsReplaced(replaced) }
        }
    }

    /// Checks that a section key path names an attribute or to-one relationship, through to-one
    /// relationships only (a to-many step has no single value to name a section by).
    static func checkSectionKeyPath(_ keyPath: String, from entity: EntityDescription) throws {
        if let relationship = try entity.propertyAlongToOnePath(keyPath, for: "section key path") as? RelationshipDescription, relationship.isToMany {
            throw ObjectGraphError(
                .invalidRequest,
                "section key path '\(keyPath)': '\(relationship.name)' is a to-many relationship; sections need one value per object"
            )
        }
    }

    /// Sort keys and section names for objects in fetched order.
    func place(_ objects: [ManagedObject], in order: FetchSortOrder) -> ([FetchedEntry], [String]?) {
        var entries: [FetchedEntry] = []
        entries.reserveCapacity(objects.count)
        for object in objects { entries.append(FetchedEntry(object: object, id: object.objectID, keys: order.keys(of: object))) }
        return (entries, sectionPath.map { path in objects.map { Self.sectionName(of: $0, path: path) } })
    }

    /// The section name of an object: its section key path's value as a string.
    static func sectionName(of object: ManagedObject, path: [String]) -> String {
        switch FetchSortOrder.value(of: object, along: path) {
        case .null: ""
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double): NSNumber(value: double).description
        case .bool(let bool): bool ? "1" : "0"
        case .decimal(let decimal): decimal.description
        case .date(let date): date.description
        case .uuid(let uuid): uuid.uuidString
        case .url(let url): url.absoluteString
        case .data(let data): data.description
        case .objectID(let id): id.uriRepresentation().absoluteString
        case .array(let values): values.description
        }
    }

    // MARK: Reading

    var fetchedObjects: [ManagedObject] {
        if let flattened { return flattened }
        let all = content.sections.flatMap { $0.run.entries.map(\.object) }
        flattened = all
        return all
    }

    func indexTitle(forSectionName name: String) -> String? {
        if let delegate, let title = delegate.controller(makeDelegateView(), sectionIndexTitleForSectionName: name) { return title }
        return name.first.map { String($0).uppercased() } ?? ""
    }

    func sectionInfo(_ section: FetchedSection) -> FetchedSectionInfo {
        FetchedSectionInfo(section: section, indexTitle: indexTitle(forSectionName: section.name))
    }

    func indexPath(for object: ManagedObject) -> IndexPath? {
        guard let placement = placements[object.objectID] else { return nil }
        return content.indexPath(section: placement.section, keys: placement.keys, primaryKey: object.objectID.primaryKey, in: order)
    }

    // MARK: Tracking

    private func contextDidChange(_ change: ObjectsDidChange) {
        guard hasFetched, !isSuspended, let entity else { return }
        do {
            if change.invalidatedAllObjects {
                // Any object may have changed: every one still there is reported updated.
                try refetchAndReport(updated: Set(placements.keys))
                return
            }
            if dependencies?.needsRefetchOnAnyChange == true && touchesOtherEntities(change) {
                let updated = change.updatedObjects.union(change.refreshedObjects).filter { isRoot($0.entity, of: entity) }
                try refetchAndReport(updated: Set(updated.map(\.objectID)))
                return
            }
            var candidates: [ManagedObjectID: ManagedObject] = [:]
            var updated: Set<ManagedObjectID> = []
            // Fetched objects whose related objects changed in keys the request does not read:
            // reported updated (a row may show them) without testing membership or order again.
            var touched: Set<ManagedObjectID> = []
            func consider(_ object: ManagedObject, isUpdate: Bool) {
                if isRoot(object.entity, of: entity) {
                    candidates[object.objectID] = object
                    if isUpdate { updated.insert(object.objectID) }
                }
                guard let dependencies, dependencies.isRelated(object.entity) else { return }
                let changedKeys = isUpdate ? change.mergedChangedKeys[object.objectID] : nil
                let roots = dependencies.affectedRoots(of: object, changedKeys: changedKeys, in: context)
                for root in roots.affecting where isRoot(root.entity, of: entity) {
                    candidates[root.objectID] = root
                    updated.insert(root.objectID)
                }
                for shown in roots.showing { shown.forEach(placedIn: placements) { touched.insert($0) } }
            }
            for object in change.inserted.objects { consider(object, isUpdate: false) }
            for object in change.deletedObjects { consider(object, isUpdate: false) }
            for object in change.updatedObjects { consider(object, isUpdate: true) }
            for object in change.refreshedObjects { consider(object, isUpdate: true) }
            for id in change.mergedUnregisteredObjectIDs {
                guard let changedEntity = context.model?.entity(named: id.entityName),
                    isRoot(changedEntity, of: entity) || dependencies?.isRelated(changedEntity) == true
                else { continue }
                consider(context.object(with: id), isUpdate: true)
            }
            touched.subtract(candidates.keys)
            guard !candidates.isEmpty || !touched.isEmpty else { return }
            if isLimited {
                try refetchAndReport(updated: updated.union(touched))
            } else {
                try applyIncrementally(candidates, updated: updated, touched: touched)
            }
        } catch {
            isSuspended = true
            delegate?.controller(makeDelegateView(), didFailWith: error)
        }
    }

    /// Follows objects whose temporary IDs became permanent: each leaves under its old ID and
    /// comes back under its new one, reported as a delete and an insert (as Core Data's
    /// snapshots report it), so that a delegate keying rows by ID stays right.
    private func objectIDsReplaced(_ replaced: [ManagedObjectID: ManagedObjectID]) {
        guard hasFetched, !isSuspended else { return }
        var deleted: [PlacedObject] = []
        var inserted: [PlacedObject] = []
        for (old, new) in replaced {
            guard let placement = placements[old], let object = context.registeredObject(for: new) else { continue }
            deleted.append(PlacedObject(object: object, id: old, keys: placement.keys, section: placement.section))
            inserted.append(PlacedObject(object: object, id: new, keys: placement.keys, section: placement.section))
        }
        guard !deleted.isEmpty else { return }
        do {
            try apply(deleted: deleted, inserted: inserted, repositioned: [], kept: [])
        } catch {
            isSuspended = true
            delegate?.controller(makeDelegateView(), didFailWith: error)
        }
    }

    private func isRoot(_ candidate: EntityDescription, of entity: EntityDescription) -> Bool {
        includesSubentities ? candidate.isKindOf(entity: entity) : candidate === entity
    }

    private func touchesOtherEntities(_ change: ObjectsDidChange) -> Bool {
        guard let entity else { return false }
        let objects = [change.updatedObjects, change.deletedObjects, change.refreshedObjects]
        return change.inserted.objects.contains { !isRoot($0.entity, of: entity) }
            || objects.contains { $0.contains { !isRoot($0.entity, of: entity) } } || !change.mergedUnregisteredObjectIDs.isEmpty
    }

    /// Whether an object belongs in the results now.
    func isMember(_ object: ManagedObject) throws -> Bool {
        // A fault whose row is gone finds out only when it is read.
        if object.managedObjectContext === context, !object.storage.flags.contains(.gone) { object.fulfillIfNeeded() }
        guard let entity, isRoot(object.entity, of: entity), !object.isDeleted,
            !object.storage.flags.contains(.gone), object.managedObjectContext === context
        else { return false }
        guard let predicate else { return true }
        return try predicate.evaluate(with: object)
    }

    /// Tells the delegate about a batch already applied to the content.
    func commit(changes: FetchedChanges, before: FetchedResultsSnapshot) {
        flattened = nil
        contentVersion &+= 1
        guard !changes.isEmpty, let delegate else { return }
        let view = makeDelegateView()
        delegate.controllerWillChangeContent(view)
        for change in changes.sections {
            delegate.controller(view, didChange: sectionInfo(change.section), atSectionIndex: change.index, for: change.type)
        }
        for change in changes.objects {
            delegate.controller(view, didChange: change.object, at: change.indexPath, for: change.type, newIndexPath: change.newIndexPath)
        }
        delegate.controller(view, didChangeContentWith: changes.difference(before: before, after: content))
        delegate.controllerDidChangeContent(view)
    }
}
