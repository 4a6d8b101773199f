/// The results of a batched fetch as a random-access collection that holds only object IDs:
/// reading an element loads its whole batch with one query, and only the two batches read last
/// are held, so walking a million objects keeps memory bounded (Core Data's batched array).
///
/// ```swift
/// let request = Photo.fetchRequest()
/// request.fetchBatchSize = 100
/// for photo in try context.fetchBatched(request) { total += photo.views }
/// ```
///
/// Use it on the context's queue, as the context's objects. An object you keep a reference to
/// stays the same object (uniquing); the others are released once their batch is left behind.
/// A batch whose rows cannot be read shows its objects as faults with default values and the
/// context reports the error (see ``ObjectsDidChange/readFailures``), as a fault read by a
/// property does.
public struct BatchedFetchResults<Element: ManagedObject>: RandomAccessCollection {
    /// The batches held, shared by copies of the collection.
    private final class Window {
        var batches: [(number: Int, objects: [ManagedObject])] = []
    }

    private let context: ManagedObjectContext
    private let ids: [ManagedObjectID]
    /// How many objects one query loads.
    public let batchSize: Int
    private let window = Window()

    init(context: ManagedObjectContext, ids: [ManagedObjectID], batchSize: Int) {
        self.context = context
        self.ids = ids
        self.batchSize = batchSize
    }

    /// The IDs of the results, in order; reading them loads nothing.
    public var objectIDs: [ManagedObjectID] { ids }

    public var startIndex: Int { 0 }
    public var endIndex: Int { ids.count }

    /// The object at `position`, its batch loaded if it is not held.
    public subscript(position: Int) -> Element {
        let number = position / batchSize
        let offset = position - number * batchSize
        if let held = window.batches.last(where: { $0.number == number }) {
            return unsafeDowncast(held.objects[offset], to: Element.self)
        }
        context.assertOnQueue()
        let batch = ids[(number * batchSize)..<Swift.min(number * batchSize + batchSize, ids.count)]
        let objects = batch.map { context.object(with: $0) }
        context.fulfillFaults(of: objects)
        window.batches.append((number, objects))
        if window.batches.count > 2 { window.batches.removeFirst() }
        return unsafeDowncast(objects[offset], to: Element.self)
    }
}

extension ManagedObjectContext {
    /// Runs an object fetch and returns its results as a collection that holds IDs and loads
    /// objects a batch at a time (``FetchRequest/fetchBatchSize``, 100 when it is 0).
    ///
    /// The IDs are read at once, with the context's unsaved changes counted as in
    /// ``fetch(_:)``; objects load as the collection is read.
    ///
    /// - Throws: as ``fetch(_:)``.
    public func fetchBatched<T: ManagedObject>(_ request: FetchRequest<T>) throws -> BatchedFetchResults<T> {
        assertOnQueue()
        processPendingChanges()
        try throwUnreportedStoreErrors()
        let ids: [ManagedObjectID]
        do {
            let (entity, descriptor) = try prepare(request)
            ids = try matchingIDs(entity, descriptor, includePending: request.includesPendingChanges)
        } catch let error as FetchPredicateError {
            throw error.withFormat(request.predicate?.predicateFormat)
        }
        return BatchedFetchResults(context: self, ids: ids, batchSize: request.fetchBatchSize > 0 ? request.fetchBatchSize : 100)
    }
}
