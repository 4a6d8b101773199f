/// The IDs a batched fetch (`fetchBatchSize > 0`) matched: its objects are faults that fill a
/// batch at a time (one query per batch), and the batches more than ``keptBatches`` behind the
/// one just read turn back into faults, so walking any number of objects keeps only a few
/// batches' values in memory.
///
/// Objects point to their fetch and batch; the fetch holds only IDs, so nothing here keeps an
/// object alive. IDs of one scope (a fetch of one entity, every fetch without sub-entities)
/// are kept as their primary keys: 8 bytes an ID, not 16 (8 MB of a million faults' peak) —
/// and consecutive keys (a fetch in insertion order, the common case) as their first key only.
final class BatchedFetch {
    /// How many filled batches stay filled.
    static let keptBatches = 2

    /// The scope of every ID, when they share one (scopes are interned, never freed).
    private unowned(unsafe) let scope: ObjectIDScope?
    /// The IDs' primary keys, in order, when they share ``scope`` and are not consecutive.
    private let keys: [Int64]
    /// The first primary key when the IDs share ``scope`` and their keys are consecutive
    /// (``keys`` is then empty).
    private let firstKey: Int64?
    /// How many IDs the fetch matched.
    let count: Int
    /// The IDs, when they do not share one scope.
    private let mixedIDs: [ManagedObjectID]
    let batchSize: Int
    /// The filled batches, least recently read first.
    private(set) var filled: [Int] = []

    /// Takes `ids`: when they share a scope, only their keys stay.
    init(ids: consuming [ManagedObjectID], batchSize: Int) {
        count = ids.count
        if let first = ids.first, ids.allSatisfy({ $0.scope === first.scope }) {
            scope = first.scope
            if ids.indices.allSatisfy({ ids[$0].primaryKey == first.primaryKey &+ Int64($0) }) {
                firstKey = first.primaryKey
                keys = []
            } else {
                firstKey = nil
                keys = ids.map(\.primaryKey)
            }
            mixedIDs = []
        } else {
            scope = nil
            firstKey = nil
            keys = []
            mixedIDs = ids
        }
        self.batchSize = batchSize
    }

    /// The ID at `index` in the fetch's order.
    @inline(__always)
    func id(at index: Int) -> ManagedObjectID {
        guard let scope else { return mixedIDs[index] }
        if let firstKey {
            precondition(index >= 0 && index < count, "index \(index) out of a batched fetch of \(count)")
            return ManagedObjectID(scope: scope, primaryKey: firstKey &+ Int64(index))
        }
        return ManagedObjectID(scope: scope, primaryKey: keys[index])
    }

    /// The IDs of batch `number`.
    func ids(ofBatch number: Int) -> [ManagedObjectID] {
        let start = min(number * batchSize, count)
        return (start..<min(start + batchSize, count)).map(id(at:))
    }

    /// Records that batch `number` was filled; returns the batches to turn back into faults.
    func didFill(_ number: Int) -> [Int] {
        filled.removeAll { $0 == number }
        filled.append(number)
        guard filled.count > Self.keptBatches else { return [] }
        let evicted = Array(filled.prefix(filled.count - Self.keptBatches))
        filled.removeFirst(evicted.count)
        return evicted
    }
}

extension ManagedObjectContext {
    /// Fills batch `number` of `fetch` with one query, and turns the batches read longest ago
    /// back into faults (their unchanged objects; changed ones keep their values).
    func fillBatch(_ number: Int, of fetch: BatchedFetch, from store: any ObjectStore) throws {
        try loadFaults(of: fetch.ids(ofBatch: number).compactMap { registry[$0] }, from: store)
        for evicted in fetch.didFill(number) {
            for id in fetch.ids(ofBatch: evicted) {
                guard let object = registry[id], !object.isFault, !object.hasChanges,
                    object.storage.faultBatch?.fetch === fetch
                else { continue }
                object.turnIntoFault()
            }
        }
    }

    /// Faults for `ids`, in order (registered objects as they are); with `batchSize > 0`, the
    /// faults fill in batches of that size as they are read. Takes `ids`: a batched fetch keeps
    /// their keys, and the IDs go before the first fault is made (a million IDs are 16 MB of a
    /// million faults' peak).
    func faults(for ids: consuming [ManagedObjectID], batchSize: Int) -> [ManagedObject] {
        let count = ids.count
        var objects: [ManagedObject] = []
        objects.reserveCapacity(count)
        // Grown once: growing as it fills would hold the old and the new table at once.
        registry.reserveCapacity(forAdditional: count)
        guard batchSize > 0 else {
            for id in ids { objects.append(object(with: id)) }
            return objects
        }
        let fetch = BatchedFetch(ids: consume ids, batchSize: batchSize)
        var batch = FaultBatch(fetch: fetch, number: 0)
        for index in 0..<count {
            if index / batchSize != batch.number { batch = FaultBatch(fetch: fetch, number: index / batchSize) }
            let object = self.object(with: fetch.id(at: index))
            if object.isFault { object.storage.setFaultBatch(batch) }
            objects.append(object)
        }
        return objects
    }
}
