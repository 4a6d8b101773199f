import Foundation

/// The part of ``ObjectStorage`` most objects never use.
final class ObjectExtras {
    var toMany: [Int: ToManyState] = [:]
    var pendingFailures: [ValidationFailure] = []
    var prefetched: [ManagedObject] = []
    var related: [Int: [ManagedObject]] = [:]
    /// ``ObjectStorage/changed``'s slots from the 64th on.
    var changedHigh: [UInt64] = []
    /// The version, when it does not fit in ``ObjectStorage``'s 32 bits.
    var version: Int64?
    /// The fault source of an object that also has extras.
    var faultSource: FaultSource?

    init() {}

    func copy() -> ObjectExtras {
        let copy = ObjectExtras()
        copy.toMany = toMany
        copy.pendingFailures = pendingFailures
        copy.prefetched = prefetched
        copy.related = related
        copy.changedHigh = changedHigh
        copy.version = version
        copy.faultSource = faultSource
        return copy
    }
}

/// A batch of a batched fetch, shared by the batch's faults (one word in each).
final class FaultBatch {
    let fetch: BatchedFetch
    let number: Int

    init(fetch: BatchedFetch, number: Int) {
        self.fetch = fetch
        self.number = number
    }
}

/// The store generation a fetch read its rows at, shared by the faults it left rows with
/// (one word in each).
final class FetchStamp {
    let generation: UInt64

    init(generation: UInt64) {
        self.generation = generation
    }
}

/// What fills a fault besides a read of its own row.
enum FaultSource {
    /// Batch `number` of a batched fetch (`fetchBatchSize`): firing fills the whole batch.
    case batch(BatchedFetch, number: Int)
    /// The row values a fetch read (`returnsObjectsAsFaults`), with the row's version in
    /// ``ObjectStorage/version``: Core Data keeps such a snapshot in its row cache, so firing
    /// the fault runs no query. Valid while the store's ``ObjectStore/snapshotGeneration`` is
    /// still `generation` (no context's save written since).
    case fetchedRow(ContiguousArray<Value>, generation: UInt64)
}
