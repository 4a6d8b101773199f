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
///
/// Touched only on its object's context queue, as the object's storage is: its to-many state
/// is read unchecked for exclusivity, like `ManagedObject.storage`.
final class ObjectExtras: ObjectAux {
    @exclusivity(unchecked) var toMany: [Int: ToManyState] = [:]
    var pendingFailures: [ValidationFailure] = []
    var prefetched: [ManagedObject] = []
    var related: [Int: [ManagedObject]] = [:]
    /// ``ObjectStorage/changed``'s slots from the 64th on.
    var changedHigh: [UInt64] = []
    /// The version, when it does not fit in ``ObjectStorage``'s 32 bits.
    var version: Int64?
    /// Where the fault of an object that also has extras fills from: a ``FaultBatch`` or a
    /// ``FetchStamp`` (the row itself stays in ``ObjectStorage``'s snapshot word).
    var faultSource: ObjectAux?

    init() {
        super.init(kind: .extras)
    }

    /// Whether relationship `slot`'s members are loaded, read in place.
    func hasLoadedMembers(at slot: Int) -> Bool {
        guard let index = toMany.index(forKey: slot) else { return false }
        return toMany.values[index].isLoaded
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
/// (one word in each; the row itself is in the fault's snapshot word).
///
/// Core Data keeps such rows in its row cache, so firing the fault runs no query
/// (`returnsObjectsAsFaults`). A row is used only while the store's `snapshotGeneration` is
/// still `generation`: no context's save has been written since.
final class FetchStamp: ObjectAux {
    let generation: UInt64

    init(generation: UInt64) {
        self.generation = generation
        super.init(kind: .fetchedRow)
    }
}
