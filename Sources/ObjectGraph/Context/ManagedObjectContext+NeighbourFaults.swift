extension ManagedObjectContext {
    /// How many objects one fault's store read may fill at most: the fault itself and the
    /// registered neighbours that would each need a read of their own.
    static let neighbourFaultLimit = 100

    /// Registered objects of `object`'s entity whose primary keys lie near its own (nearest
    /// first, alternating above and below, within `neighbourFaultLimit` on either side) and
    /// that `needsRead` accepts; at most `neighbourFaultLimit - 1` of them.
    ///
    /// Firing faults one at a time costs a store read each, which a walk over a fetched list
    /// pays once per object (a query on SQLite, a round trip on PostgreSQL). Objects fetched
    /// together have nearby keys, so the fault that fires first reads for the neighbours it
    /// finds still registered in this context, and their own faults then fire without a read.
    /// Only objects that already exist are read for: none is created, and none is kept alive.
    func registeredNeighbours(of object: ManagedObject, where needsRead: (ManagedObject) -> Bool) -> [ManagedObject] {
        let id = object.objectID
        guard !id.isTemporaryID else { return [] }
        let limit = Self.neighbourFaultLimit
        var neighbours: [ManagedObject] = []
        /// Takes the object registered under `key` if it needs a read; `true` when enough are taken.
        func take(_ key: Int64) -> Bool {
            guard key > 0, let neighbour = registry[ManagedObjectID(scope: id.scope, primaryKey: key)], needsRead(neighbour)
            else { return false }
            neighbours.append(neighbour)
            return neighbours.count == limit - 1
        }
        for distance in 1...Int64(limit) {
            if take(id.primaryKey &+ distance) || take(id.primaryKey &- distance) { break }
        }
        return neighbours
    }

    /// Whether `object` is a fault that only a store read fills: not one a batched fetch
    /// fills, not one holding a row its fetch read while the store is still at that row's
    /// `generation`, and neither deleted nor gone.
    private func isUnreadFault(_ object: ManagedObject, generation: UInt64?) -> Bool {
        guard object.isFault, !object.isDeleted, !object.storage.flags.contains(.gone) else { return false }
        if let fetched = object.storage.fetchedRowGeneration { return fetched != generation }
        return object.storage.faultBatch == nil
    }

    /// Reads `object`'s row together with the rows of its registered neighbours that are
    /// unread faults (one query per entity), and fills them all.
    func loadFaultWithNeighbours(_ object: ManagedObject, from store: any ObjectStore) throws {
        let generation = store.snapshotGeneration
        let neighbours = registeredNeighbours(of: object) { isUnreadFault($0, generation: generation) }
        if neighbours.isEmpty { return fill(object, with: try store.row(for: object.objectID)) }
        let rows = try store.rows(for: [object.objectID] + neighbours.map(\.objectID))
        fill(object, with: rows[object.objectID])
        for neighbour in neighbours where isUnreadFault(neighbour, generation: generation) {
            neighbour.storage.dropFetchedRow()
            fill(neighbour, with: rows[neighbour.objectID])
        }
    }

    /// The stored members of `object`'s to-many `relationship`, read together with those of
    /// its registered neighbours whose same relationship is not loaded yet; the neighbours
    /// take theirs as prefetched members.
    func membersWithNeighbours(
        of object: ManagedObject,
        relationship: RelationshipDescription,
        from store: any ObjectStore
    ) throws -> [ManagedObjectID] {
        let slot = relationship.slot
        let neighbours = registeredNeighbours(of: object) { neighbour in
            !neighbour.hasLoadedMembers(at: slot) && !neighbour.isDeleted && !neighbour.storage.flags.contains(.gone)
        }
        let key = RelationshipKey(relationship)
        if neighbours.isEmpty { return try store.members(of: object.objectID, relationship: key) }
        let members = try store.members(ofAll: [object.objectID] + neighbours.map(\.objectID), relationship: key)
        for (index, neighbour) in neighbours.enumerated() { neighbour.loadPrefetchedMembers(members[index + 1], at: slot) }
        return members[0]
    }
}
