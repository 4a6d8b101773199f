import Foundation

/// What an ``ObjectStorage``'s one word of out-of-line state points to: a class, not an enum
/// of classes, so that the word is one reference — checked for uniqueness in place, read
/// without a retain — and a `kind` tells which subclass without a dynamic cast.
class ObjectAux {
    /// Which subclass this is.
    enum Kind: UInt8 {
        case extras, batch, fetchedRow
    }

    let kind: Kind

    init(kind: Kind) {
        self.kind = kind
    }
}

/// The part of ``ObjectStorage`` most objects never use.
final class ObjectExtras: ObjectAux {
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

    init() {
        super.init(kind: .extras)
    }

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
final class FaultBatch: ObjectAux {
    let fetch: BatchedFetch
    let number: Int

    init(fetch: BatchedFetch, number: Int) {
        self.fetch = fetch
        self.number = number
        super.init(kind: .batch)
    }
}

/// The store generation a fetch read its rows at, shared by the faults it left rows with
/// (one word in each).
final class FetchStamp: ObjectAux {
    let generation: UInt64

    init(generation: UInt64) {
        self.generation = generation
        super.init(kind: .fetchedRow)
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
