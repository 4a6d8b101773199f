/// A request a context runs in its store without loading objects, as Core Data's
/// `NSPersistentStoreRequest`: batch inserts, updates and deletes, persistent history requests
/// and asynchronous fetches.
///
/// Run one with ``ManagedObjectContext/execute(_:)`` and cast the result to the request's result
/// class, as in Core Data:
///
/// ```swift
/// let request = BatchDeleteRequest(fetchRequest: FetchRequest<any FetchRequestResult>(entityName: "Photo"))
/// request.resultType = .resultTypeObjectIDs
/// let result = try context.execute(request) as? BatchDeleteResult
/// let deleted = result?.result as? [ManagedObjectID] ?? []
/// ```
///
/// The request kinds are ObjectGraph's own subclasses; this class cannot be subclassed outside
/// the framework.
public class PersistentStoreRequest: @unchecked Sendable {
    // @unchecked Sendable: subclasses are configured on one thread, then handed to a context;
    // Core Data's requests are used the same way.

    /// What kind of request this is, as Core Data's `NSPersistentStoreRequestType`.
    public enum RequestType: Sendable, Hashable {
        /// A fetch (``AsynchronousFetchRequest``).
        case fetchRequestType
        /// A save-like request: history fetches and deletions.
        case saveRequestType
        /// ``BatchInsertRequest``.
        case batchInsertRequestType
        /// ``BatchUpdateRequest``.
        case batchUpdateRequestType
        /// ``BatchDeleteRequest``.
        case batchDeleteRequestType
    }

    /// What kind of request this is.
    public var requestType: RequestType { .saveRequestType }

    init() {}

    /// Runs the request on `context`'s queue (the context checks the queue first).
    ///
    /// Each request kind overrides this; the base class has nothing to run.
    func execute(in context: ManagedObjectContext) throws -> PersistentStoreResult {
        throw ObjectGraphError(.persistentStoreOperation, "\(type(of: self)) is not a request ObjectGraph can run")
    }
}

/// What ``ManagedObjectContext/execute(_:)`` returns, as Core Data's `NSPersistentStoreResult`;
/// cast it to the request's result class (``BatchDeleteResult``, ``BatchUpdateResult``, …).
public class PersistentStoreResult: @unchecked Sendable {
    // @unchecked Sendable: immutable after the request returns it.
    init() {}
}

extension ManagedObjectContext {
    /// Runs a store request — a batch insert, update or delete, a persistent history request or
    /// an asynchronous fetch — and returns its result, as Core Data's `execute(_:)`.
    ///
    /// Batch requests work in the store directly: objects already in this or other contexts
    /// keep their values until the changes are merged, for instance with
    /// ``mergeChanges(fromRemoteContextSave:into:)``.
    ///
    /// - Throws: ``ObjectGraphError`` naming what went wrong (unknown entity, a predicate
    ///   error, a constraint the changes would break, a store error).
    public func execute(_ request: PersistentStoreRequest) throws -> PersistentStoreResult {
        assertOnQueue()
        return try HistoryWriter.$current.withValue(HistoryWriter(author: transactionAuthor, contextName: name)) {
            try request.execute(in: self)
        }
    }
}
