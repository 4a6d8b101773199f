import Foundation

/// A fetch that reads its rows in the background and hands the results to a completion on the
/// context's queue, with progress and cancellation, as Core Data's `NSAsynchronousFetchRequest`.
///
/// ``ManagedObjectContext/execute(_:)`` returns an ``AsynchronousFetchResult`` at once; the
/// rows are read off the context's queue, a page at a time (the result's progress counts them,
/// and cancelling stops between pages), then the objects are registered and the completion
/// runs on the context's queue. A fetch whose results depend on the context's unsaved changes,
/// on a predicate evaluated in memory, on prefetching, or that returns IDs, dictionaries or a
/// count runs whole on the context's queue instead (still after `execute` returned).
///
/// ```swift
/// let request = AsynchronousFetchRequest(fetchRequest: Photo.fetchRequest()) { result in
///     show(result.finalResult ?? [])
/// }
/// let running = try context.execute(request) as? AsynchronousFetchResult<Photo>
/// // later: running?.cancel()
/// ```
public final class AsynchronousFetchRequest<ResultType>: PersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then executed by a context; the completion
    // only ever runs on that context's queue.

    /// The fetch to run.
    public let fetchRequest: FetchRequest<ResultType>
    /// Called on the context's queue when the fetch ends: with the objects, an error, or a
    /// cancellation.
    public let completionBlock: ((AsynchronousFetchResult<ResultType>) -> Void)?
    /// How many results to expect, for the progress's total before the store counted them;
    /// 0 (the default) lets the store count them first.
    public var estimatedResultCount = 0

    /// What kind of request this is: ``PersistentStoreRequest/RequestType/fetchRequestType``.
    public override var requestType: RequestType { .fetchRequestType }

    /// A request running `fetchRequest` in the background, then `completionBlock` on the
    /// context's queue.
    public init(fetchRequest: FetchRequest<ResultType>, completionBlock: ((AsynchronousFetchResult<ResultType>) -> Void)?) {
        self.fetchRequest = fetchRequest
        self.completionBlock = completionBlock
        super.init()
    }

    /// How many rows one background read takes.
    static var pageSize: Int { 200 }

    override func execute(in context: ManagedObjectContext) throws -> PersistentStoreResult {
        let progress = Progress(totalUnitCount: Int64(max(estimatedResultCount, 0)))
        let result = AsynchronousFetchResult(context: context, progress: progress, fetchRequest: fetchRequest)
        let (_, descriptor) = try context.prepare(fetchRequest)
        let store = try context.store()
        let readsInBackground =
            fetchRequest.resultType == .managedObjectResultType && !descriptor.needsInMemoryEvaluation
            && !(fetchRequest.includesPendingChanges && !context.registry.changed.isEmpty)
            && (fetchRequest.relationshipKeyPathsForPrefetching ?? []).isEmpty
        let job = AsynchronousFetchJob(request: self, result: result)
        if !readsInBackground {
            context.perform { job.finishOnQueue(rows: nil) }
            return result
        }
        DispatchQueue.global().async {
            do {
                let rows = try Self.readRows(descriptor, from: store, progress: progress)
                context.perform { job.finishOnQueue(rows: rows) }
            } catch {
                context.perform { job.fail(error) }
            }
        }
        return result
    }

    /// Reads the matching rows a page at a time, counting them on `progress`; stops early when
    /// it is cancelled.
    private static func readRows(_ descriptor: FetchDescriptor, from store: any ObjectStore, progress: Progress) throws -> [StoredRow] {
        let total = try store.count(matching: descriptor)
        progress.totalUnitCount = Int64(total)
        var rows: [StoredRow] = []
        rows.reserveCapacity(total)
        var page = descriptor
        var remaining = descriptor.fetchLimit > 0 ? descriptor.fetchLimit : Int.max
        page.fetchOffset = descriptor.fetchOffset
        while remaining > 0 && !progress.isCancelled {
            page.fetchLimit = min(pageSize, remaining)
            let read = try store.rows(matching: page)
            rows += read
            progress.completedUnitCount = Int64(rows.count)
            if read.count < page.fetchLimit { break }
            remaining -= read.count
            page.fetchOffset += read.count
        }
        return rows
    }
}

/// Finishes one asynchronous fetch on its context's queue.
private struct AsynchronousFetchJob<ResultType>: @unchecked Sendable {
    // @unchecked Sendable: created on the context's queue, used again only there.
    let request: AsynchronousFetchRequest<ResultType>
    let result: AsynchronousFetchResult<ResultType>

    /// Registers `rows` (or, without them, runs the whole fetch) and calls the completion.
    func finishOnQueue(rows: [StoredRow]?) {
        let context = result.managedObjectContext
        guard !(result.progress?.isCancelled ?? false) else { return fail(CocoaError(.userCancelled)) }
        do {
            let objects: [ResultType]
            if let rows {
                let registered = rows.map(context.registerFetched).filter { !$0.storage.flags.contains(.gone) }
                objects = try registered.map { object in
                    guard let typed = object as? ResultType else {
                        throw ObjectGraphError(
                            .typeMismatch,
                            "fetched a \(type(of: object)) (entity \(object.entity.name)) that is not a \(ResultType.self)"
                        )
                    }
                    return typed
                }
            } else {
                objects = try context.fetch(request.fetchRequest)
                result.progress?.totalUnitCount = Int64(objects.count)
                result.progress?.completedUnitCount = Int64(objects.count)
            }
            result.finalResult = objects
        } catch {
            return fail(error)
        }
        request.completionBlock?(result)
    }

    /// Ends the fetch with `error` and no results.
    func fail(_ error: any Error) {
        result.operationError = error
        result.finalResult = nil
        request.completionBlock?(result)
    }
}

/// The result of an ``AsynchronousFetchRequest``, as Core Data's `NSAsynchronousFetchResult`:
/// returned by ``ManagedObjectContext/execute(_:)`` at once, filled when the fetch ends.
public final class AsynchronousFetchResult<ResultType>: PersistentStoreAsynchronousResult, @unchecked Sendable {
    // @unchecked Sendable: `finalResult` is written once, on the context's queue, before the
    // completion runs; read it there.

    /// The fetch request that ran.
    public let fetchRequest: FetchRequest<ResultType>
    /// The fetched objects, set on the context's queue before the completion runs; `nil` while
    /// the fetch runs, and when it failed or was cancelled (see ``operationError``).
    public internal(set) var finalResult: [ResultType]?

    init(context: ManagedObjectContext, progress: Progress, fetchRequest: FetchRequest<ResultType>) {
        self.fetchRequest = fetchRequest
        super.init(context: context, progress: progress)
    }
}
