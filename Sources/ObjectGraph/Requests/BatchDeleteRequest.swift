import Foundation

/// What a ``BatchDeleteRequest`` returns in its ``BatchDeleteResult``, as Core Data's
/// `NSBatchDeleteRequestResultType`.
public enum BatchDeleteRequestResultType: Sendable, Hashable {
    /// `true` when the delete succeeded.
    case resultTypeStatusOnly
    /// The IDs of the deleted objects (`[ManagedObjectID]`), those the delete rules cascaded to
    /// included.
    case resultTypeObjectIDs
    /// How many objects were deleted (`Int`), those the delete rules cascaded to included.
    case resultTypeCount
}

/// Deletes the objects a fetch request matches (or the objects with the given IDs) straight in
/// the store, without loading them, as Core Data's `NSBatchDeleteRequest`.
///
/// The delete rules run in SQL, in the same transaction: `.cascade` deletes the destinations
/// (to any depth), `.nullify` clears the destinations' references (foreign keys set to NULL,
/// join rows removed) and gives those rows a new version, `.deny` refuses the whole request
/// with ``ObjectGraphError/Code/validationRelationshipDeniedDelete`` naming the entity, the
/// relationship and a denying object, and nothing is deleted.
///
/// Unlike Core Data, whose result lists only the objects the request matched, the IDs and the
/// count include the objects deleted by cascade, so merging the IDs keeps every context right.
/// ``BatchDeleteResult/changes`` also lists the objects whose relationships were nullified.
///
/// ```swift
/// let fetch = FetchRequest<FetchRequestResult>(entityName: "Photo")
/// fetch.predicate = FetchPredicate(format: "uploaded < %@", cutoff as NSDate)
/// let request = BatchDeleteRequest(fetchRequest: fetch)
/// request.resultType = .resultTypeObjectIDs
/// let result = try context.execute(request) as? BatchDeleteResult
/// let ids = result?.result as? [ManagedObjectID] ?? []
/// ManagedObjectContext.mergeChanges(fromRemoteContextSave: [DeletedObjectsKey: ids], into: [viewContext])
/// ```
public final class BatchDeleteRequest: PersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then executed by a context, as Core Data's.

    /// The fetch request naming the objects to delete (its entity, predicate,
    /// `includesSubentities`, and with a limit or offset its sort); `nil` for a request made
    /// with IDs.
    public let fetchRequest: FetchRequest<any FetchRequestResult>?
    /// The IDs of the objects to delete, for a request made with IDs.
    public let objectIDs: [ManagedObjectID]?
    /// What the result holds; ``BatchDeleteRequestResultType/resultTypeStatusOnly`` by default.
    public var resultType: BatchDeleteRequestResultType = .resultTypeStatusOnly

    /// What kind of request this is: ``PersistentStoreRequest/RequestType/batchDeleteRequestType``.
    public override var requestType: RequestType { .batchDeleteRequestType }

    /// A request deleting the objects `fetchRequest` matches.
    public init(fetchRequest: FetchRequest<any FetchRequestResult>) {
        self.fetchRequest = fetchRequest
        objectIDs = nil
        super.init()
    }

    /// A request deleting the objects with `objectIDs`, all of one entity (as in Core Data,
    /// mixing entities is an error when the request runs). IDs without a row are ignored.
    public init(objectIDs: [ManagedObjectID]) {
        fetchRequest = nil
        self.objectIDs = objectIDs
        super.init()
    }

    override func execute(in context: ManagedObjectContext) throws -> PersistentStoreResult {
        let store = try context.batchStore()
        let changes: BatchChanges
        if let objectIDs {
            if let first = objectIDs.first, let other = objectIDs.first(where: { $0.entityName != first.entityName }) {
                throw ObjectGraphError(
                    .invalidRequest,
                    "a batch delete by IDs takes objects of one entity; got \(first.entityName) and \(other.entityName)"
                )
            }
            changes = try store.batchDelete(objectIDs: objectIDs)
        } else if let fetchRequest {
            let (_, descriptor) = try context.prepare(fetchRequest)
            changes = try store.batchDelete(matching: descriptor)
        } else {
            throw ObjectGraphError(.invalidRequest, "the batch delete has neither a fetch request nor object IDs")
        }
        switch resultType {
        case .resultTypeStatusOnly: return BatchDeleteResult(resultType: resultType, result: true, changes: changes)
        case .resultTypeObjectIDs: return BatchDeleteResult(resultType: resultType, result: changes.deleted, changes: changes)
        case .resultTypeCount: return BatchDeleteResult(resultType: resultType, result: changes.deleted.count, changes: changes)
        }
    }
}

/// The result of a ``BatchDeleteRequest``, as Core Data's `NSBatchDeleteResult`.
public final class BatchDeleteResult: PersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: immutable; `result` holds a Bool, an Int or [ManagedObjectID].

    /// The kind of ``result``, as the request asked.
    public let resultType: BatchDeleteRequestResultType
    /// `true`, the deleted objects' IDs (`[ManagedObjectID]`) or their number (`Int`), as
    /// ``resultType`` says; objects deleted by cascade are included.
    public let result: Any?
    /// Everything the delete changed: the deleted objects under ``DeletedObjectsKey``, the
    /// objects whose relationships were nullified under ``UpdatedObjectsKey``. Hand it to
    /// ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``.
    public let changes: [AnyHashable: Any]

    init(resultType: BatchDeleteRequestResultType, result: Any?, changes: BatchChanges) {
        self.resultType = resultType
        self.result = result
        self.changes = changes.userInfo
        super.init()
    }
}
