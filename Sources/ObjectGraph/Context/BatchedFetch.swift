/// The IDs a batched fetch (`fetchBatchSize > 0`) matched: its objects are faults that fill a
/// batch at a time (one query per batch), and the batches more than ``keptBatches`` behind the
/// one just read turn back into faults, so walking any number of objects keeps only a few
/// batches' values in memory.
///
/// Objects point to their fetch and batch; the fetch holds only IDs, so nothing here keeps an
/// object alive.
final class BatchedFetch {
    /// How many filled batches stay filled.
    static let keptBatches = 2

    let ids: [ManagedObjectID]
    let batchSize: Int
    /// The filled batches, least recently read first.
    private(set) var filled: [Int] = []

    init(ids: [ManagedObjectID], batchSize: Int) {
        self.ids = ids
        self.batchSize = batchSize
    }

    /// The IDs of batch `number`.
    func ids(ofBatch number: Int) -> ArraySlice<ManagedObjectID> {
        let start = number * batchSize
        return ids[min(start, ids.count)..<min(start + batchSize, ids.count)]
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
    /// faults fill in batches of that size as they are read.
    func faults(for ids: [ManagedObjectID], batchSize: Int) -> [ManagedObject] {
        let fetch = batchSize > 0 ? BatchedFetch(ids: ids, batchSize: batchSize) : nil
        var objects: [ManagedObject] = []
        objects.reserveCapacity(ids.count)
        // Grown once: growing as it fills would hold the old and the new table at once.
        registry.reserveCapacity(forAdditional: ids.count)
        for (index, id) in ids.enumerated() {
            let object = self.object(with: id)
            if let fetch, object.isFault { object.storage.joinFaultBatch(fetch, number: index / batchSize) }
            objects.append(object)
        }
        return objects
    }
}
