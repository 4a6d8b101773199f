import Foundation

/// Which related objects a controller's results depend on, and how to get from a changed
/// related object back to the fetched objects it affects.
///
/// Every key path the request reads — sort keys, the section key path, the predicate's key
/// paths (inside subqueries too) — is followed from the fetched entity through its
/// relationships; each relationship chain is kept. A change to an object at the end of a chain
/// is walked back through the inverse relationships to the fetched objects, which are then
/// re-evaluated. A chain with a relationship that has no inverse, or a predicate the analysis
/// cannot read, makes the controller refetch on every change instead (correct, slower).
struct FetchedDependencies {
    /// A relationship chain from the fetched entity, at least one relationship long, and the
    /// keys the request reads on the objects at its end.
    private struct Chain {
        let relationships: [RelationshipDescription]
        /// The relationships' identities: two controllers' chains through the same
        /// relationships walk alike.
        let identity: [ObjectIdentifier]
        /// Whether the chain goes through a to-many relationship: a change at its end may
        /// reach any number of fetched objects (a tag's every photo).
        let fansOut: Bool
        var keysRead: Set<String> = []

        init(relationships: [RelationshipDescription]) {
            self.relationships = relationships
            identity = relationships.map(ObjectIdentifier.init)
            fansOut = relationships.contains { $0.isToMany }
        }
    }

    private var chains: [Chain] = []
    /// Whether some dependency cannot be walked back, so any change of another entity means a
    /// full refetch.
    private(set) var needsRefetchOnAnyChange = false

    init(entity: EntityDescription, keyPaths: [String], predicate: PredicateNode?) {
        for keyPath in keyPaths { addKeyPath(keyPath.split(separator: ".").map(String.init), from: entity, base: []) }
        if let predicate { visit(predicate, root: entity, variables: [:]) }
        for chain in chains where chain.relationships.contains(where: { $0.inverseRelationship == nil }) {
            needsRefetchOnAnyChange = true
        }
    }

    /// The fetched-entity objects `object`'s change reaches, found by walking every chain that
    /// ends at `object`'s entity back through the inverses: `affecting`, whose membership,
    /// order or section may change; `showing`, which only show it (their rows may read it).
    ///
    /// With `changedKeys` (known for an object a merged save changed), a chain none of whose
    /// read keys changed leads to `showing`: a tag's photo count changing does not make every
    /// photo of the tag be tested again against a list filtered by the tag's name. `showing`
    /// stays IDs (a photographer may have a million photos; a controller only wants those it
    /// holds).
    ///
    /// Only to-one chains lead to `showing` (a recent's photo retitled, a photo's photographer
    /// renamed: what rows show). Through a to-many relationship — a predicate's `ANY tags.name`
    /// — a change to a key the request does not read reaches nothing, as in Core Data, whose
    /// controller reports no change of a related object: reporting it would make one tag's count
    /// changing cost every row of a list of a hundred thousand photos.
    func affectedRoots(
        of object: ManagedObject,
        changedKeys: Set<String>? = nil,
        in context: ManagedObjectContext
    ) -> (affecting: [ManagedObject], showing: [RelatedRoots]) {
        var roots: [ManagedObject] = []
        var showing: [RelatedRoots] = []
        for chain in chains {
            guard let last = chain.relationships.last?.destinationEntity, object.entity.isKindOf(entity: last) else { continue }
            let onlyShown = changedKeys.map { chain.keysRead.isDisjoint(with: $0) } ?? false
            if onlyShown && chain.fansOut { continue }
            let key = RelatedRoots.Key(object: object.objectID, chain: chain.identity)
            guard let walked = context.tracker.relatedRoots(key, walk: { Self.walk(chain, from: object, in: context) }) else { break }
            if onlyShown {
                showing.append(walked)
            } else {
                roots.append(contentsOf: walked.ids.map(context.object(with:)))
            }
        }
        return (roots, showing)
    }

    /// The roots `chain` leads back to from `object`; `nil` when a relationship on it has no
    /// inverse (such a controller refetches on any change instead).
    private static func walk(_ chain: Chain, from object: ManagedObject, in context: ManagedObjectContext) -> RelatedRoots? {
        var current: [ManagedObject] = [object]
        let inverses = chain.relationships.reversed().map(\.inverseRelationship)
        for inverse in inverses.dropLast() {
            guard let inverse else { return nil }
            current = current.flatMap { $0.relatedObjects(through: inverse, in: context) }
        }
        guard let inverse = inverses.last ?? nil else { return nil }
        return RelatedRoots(ids: current.flatMap { $0.relatedObjectIDs(through: inverse) })
    }

    /// Whether objects of `entity` feed the results through some chain.
    func isRelated(_ entity: EntityDescription) -> Bool {
        chains.contains { chain in chain.relationships.last?.destinationEntity.map { entity.isKindOf(entity: $0) || $0.isKindOf(entity: entity) } ?? false }
    }

    // MARK: Analysis

    private mutating func addKeyPath(_ components: [String], from entity: EntityDescription, base: [RelationshipDescription]) {
        var current = entity
        var chain = base
        for component in components {
            read(component, atEndOf: chain)
            guard let slot = current.slotByName[component],
                let relationship = current.allProperties[slot] as? RelationshipDescription,
                let destination = relationship.destinationEntity
            else { return }
            chain.append(relationship)
            add(chain)
            current = destination
        }
        // A key path ending at a relationship reads the related objects' identity (or a
        // to-many's members), which changes to the fetched object itself report.
    }

    /// Records `chain` (once) and returns where it is kept.
    @discardableResult
    private mutating func add(_ chain: [RelationshipDescription]) -> Int {
        let identity = chain.map(ObjectIdentifier.init)
        if let index = chains.firstIndex(where: { $0.identity == identity }) { return index }
        chains.append(Chain(relationships: chain))
        return chains.count - 1
    }

    /// Records that the request reads `key` on the objects at the end of `chain` (nothing to
    /// record for the fetched objects themselves: their own changes always count).
    private mutating func read(_ key: String, atEndOf chain: [RelationshipDescription]) {
        guard !chain.isEmpty else { return }
        chains[add(chain)].keysRead.insert(key)
    }

    /// Where an expression leads: an entity reached through a chain, if it is an object.
    private typealias Place = (entity: EntityDescription, chain: [RelationshipDescription])

    private mutating func visit(_ node: PredicateNode, root: EntityDescription, variables: [String: Place]) {
        switch node {
        case .constant: return
        case .unsupported: needsRefetchOnAnyChange = true
        case .not(let inner): visit(inner, root: root, variables: variables)
        case .and(let parts), .or(let parts): for part in parts { visit(part, root: root, variables: variables) }
        case .comparison(let comparison):
            _ = place(of: comparison.lhs, root: root, variables: variables)
            _ = place(of: comparison.rhs, root: root, variables: variables)
        }
    }

    /// Records the chains an expression reads and returns where it leads.
    private mutating func place(of expression: ExpressionNode, root: EntityDescription, variables: [String: Place]) -> Place? {
        switch expression {
        case .constant: return nil
        case .evaluatedObject: return (root, [])
        case .variable(let name): return variables[name]
        case .unsupported:
            needsRefetchOnAnyChange = true
            return nil
        case .array(let items):
            for item in items { _ = place(of: item, root: root, variables: variables) }
            return nil
        case .aggregate(let base, _):
            _ = place(of: base, root: root, variables: variables)
            return nil
        case .index(let base, .size):
            _ = place(of: base, root: root, variables: variables)
            return nil
        case .index(let base, let selector):
            // An element is an object of the collection's entity, reached through its chain.
            if case .at(let position) = selector { _ = place(of: position, root: root, variables: variables) }
            return place(of: base, root: root, variables: variables)
        case .arithmetic(_, let lhs, let rhs):
            _ = place(of: lhs, root: root, variables: variables)
            _ = place(of: rhs, root: root, variables: variables)
            return nil
        case .function(_, let arguments):
            for argument in arguments { _ = place(of: argument, root: root, variables: variables) }
            return nil
        case .subquery(let collection, let variable, let predicate):
            guard let source = place(of: collection, root: root, variables: variables) else {
                needsRefetchOnAnyChange = true
                return nil
            }
            var inner = variables
            inner[variable] = source
            visit(predicate, root: root, variables: inner)
            return nil
        case .keyPath(let base, let key):
            guard let from = place(of: base, root: root, variables: variables) else { return nil }
            read(key, atEndOf: from.chain)
            guard let slot = from.entity.slotByName[key] else { return nil }
            guard let relationship = from.entity.allProperties[slot] as? RelationshipDescription,
                let destination = relationship.destinationEntity
            else { return nil }
            let chain = from.chain + [relationship]
            add(chain)
            return (destination, chain)
        }
    }
}

extension ManagedObject {
    /// The objects `relationship` (one of this object's) points at, registered in `context`.
    func relatedObjects(through relationship: RelationshipDescription, in context: ManagedObjectContext) -> [ManagedObject] {
        relatedObjectIDs(through: relationship).map(context.object(with:))
    }

    /// The IDs of the objects `relationship` (one of this object's) points at.
    func relatedObjectIDs(through relationship: RelationshipDescription) -> [ManagedObjectID] {
        guard let slot = entity.slotByName[relationship.name] else { return [] }
        // A deleted object's last values still say which objects pointed at it.
        if !storage.flags.contains(.gone) { fulfillIfNeeded() }
        guard !storage.values.isEmpty else { return [] }
        if relationship.isToMany { return toManyMembers(at: slot) }
        guard case .objectID(let id) = storage.values[slot] else { return [] }
        return [id]
    }
}
