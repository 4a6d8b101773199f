public import Foundation

/// What a ``BatchInsertRequest`` returns in its ``BatchInsertResult``, as Core Data's
/// `NSBatchInsertRequestResultType`.
public enum BatchInsertRequestResultType: Sendable, Hashable {
    /// `true` when the insert succeeded.
    case statusOnly
    /// The ID of each object, in the order the objects were given: a new row's ID, or for an
    /// object whose uniqueness-constraint values matched a stored row, that row's ID.
    case objectIDs
    /// How many objects were written (inserted or upserted), as an `Int`.
    case count
}

/// Inserts many objects of one entity straight into the store, without loading them into a
/// context, as Core Data's `NSBatchInsertRequest`.
///
/// Give the objects as dictionaries of attribute values, or fill one dictionary at a time in a
/// handler. Values are converted exactly as ``ManagedObject/setValue(_:forKey:)`` converts them
/// (any integer type for an integer attribute, `NSNull` or `nil` for no value); missing
/// optional attributes get their default, a missing required attribute, an unknown key or a
/// value of the wrong type throws, naming the key, the entity and the object's index, and
/// nothing is written. Relationships cannot be set by a batch insert (as in Core Data).
///
/// An entity with uniqueness constraints is upserted, as Core Data's batch insert is: an
/// object whose constrained values match a stored row updates that row (the keys it gives)
/// and its ID is that row's. All of it is one transaction.
///
/// ```swift
/// let request = BatchInsertRequest(entityName: "Photo", objects: [
///     ["unique": "p1", "title": "Hoover Tower"],
///     ["unique": "p2", "title": "Main Quad"],
/// ])
/// request.resultType = .objectIDs
/// let result = try context.execute(request) as? BatchInsertResult
/// let ids = result?.result as? [ManagedObjectID] ?? []
/// ManagedObjectContext.mergeChanges(fromRemoteContextSave: [InsertedObjectsKey: ids], into: [viewContext])
/// ```
public final class BatchInsertRequest: PersistentStoreRequest, @unchecked Sendable {
    // @unchecked Sendable: configured on one thread, then executed by a context, as Core Data's.

    /// The name of the entity inserted into.
    public let entityName: String
    /// The entity inserted into, when the request was made with one.
    public private(set) var entity: EntityDescription?
    /// The objects to insert, as attribute values by name; `nil` when a handler fills them.
    public var objectsToInsert: [[String: Any]]?
    /// Fills one object's values per call into the dictionary it is given; returns `true` to
    /// stop (the dictionary of that call is not inserted), as Core Data's.
    public var dictionaryHandler: ((NSMutableDictionary) -> Bool)?
    /// Sets one object's attributes per call on the object it is given; returns `true` to stop
    /// (the object of that call is not inserted), as Core Data's. The object belongs to no
    /// context: set attributes only.
    public var managedObjectHandler: ((ManagedObject) -> Bool)?
    /// What the result holds; ``BatchInsertRequestResultType/statusOnly`` by default.
    public var resultType: BatchInsertRequestResultType = .statusOnly

    /// What kind of request this is: ``PersistentStoreRequest/RequestType/batchInsertRequestType``.
    public override var requestType: RequestType { .batchInsertRequestType }

    /// A request inserting `objects` (attribute values by name) into the entity named `entityName`.
    public init(entityName: String, objects: [[String: Any]]) {
        self.entityName = entityName
        objectsToInsert = objects
        super.init()
    }

    /// A request inserting `objects` (attribute values by name) into `entity`.
    public init(entity: EntityDescription, objects: [[String: Any]]) {
        entityName = entity.name
        self.entity = entity
        objectsToInsert = objects
        super.init()
    }

    /// A request inserting into the entity named `entityName` the objects `handler` fills, one
    /// per call, until it returns `true`.
    public init(entityName: String, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        self.entityName = entityName
        dictionaryHandler = handler
        super.init()
    }

    /// A request inserting into `entity` the objects `handler` fills, one per call, until it
    /// returns `true`.
    public init(entity: EntityDescription, dictionaryHandler handler: @escaping (NSMutableDictionary) -> Bool) {
        entityName = entity.name
        self.entity = entity
        dictionaryHandler = handler
        super.init()
    }

    /// A request inserting into the entity named `entityName` the objects `handler` sets up,
    /// one per call, until it returns `true`.
    public init(entityName: String, managedObjectHandler handler: @escaping (ManagedObject) -> Bool) {
        self.entityName = entityName
        managedObjectHandler = handler
        super.init()
    }

    /// A request inserting into `entity` the objects `handler` sets up, one per call, until it
    /// returns `true`.
    public init(entity: EntityDescription, managedObjectHandler handler: @escaping (ManagedObject) -> Bool) {
        entityName = entity.name
        self.entity = entity
        managedObjectHandler = handler
        super.init()
    }

    override func execute(in context: ManagedObjectContext) throws -> PersistentStoreResult {
        let store = try context.batchStore()
        let outcome: (changes: BatchChanges, objectIDs: [ManagedObjectID])
        if objectsToInsert == nil, dictionaryHandler == nil, let managedObjectHandler {
            outcome = try store.batchInsert(entityName: entityName, objectsFrom: managedObjectHandler)
        } else {
            outcome = try store.batchInsert(entityName: entityName, objects: try collectObjects())
        }
        switch resultType {
        case .statusOnly: return BatchInsertResult(resultType: resultType, result: true, changes: outcome.changes)
        case .objectIDs: return BatchInsertResult(resultType: resultType, result: outcome.objectIDs, changes: outcome.changes)
        case .count: return BatchInsertResult(resultType: resultType, result: outcome.objectIDs.count, changes: outcome.changes)
        }
    }

    /// The objects given, or those the handler fills (its keys as strings).
    private func collectObjects() throws -> [[String: Any]] {
        if let objectsToInsert { return objectsToInsert }
        guard let dictionaryHandler else {
            throw ObjectGraphError(.invalidRequest, "the batch insert into \(entityName) has no objects and no handler")
        }
        var objects: [[String: Any]] = []
        while true {
            let dictionary = NSMutableDictionary()
            if dictionaryHandler(dictionary) { break }
            var object: [String: Any] = [:]
            for case let (key, value) in dictionary {
                guard let name = key as? String ?? (key as? NSString).map({ String(describing: $0) }) else {
                    throw ObjectGraphError(
                        .unknownKey,
                        "object \(objects.count) of the batch insert into \(entityName) has a key that is not a string: \(key)"
                    )
                }
                object[name] = value
            }
            objects.append(object)
        }
        return objects
    }
}

/// The result of a ``BatchInsertRequest``, as Core Data's `NSBatchInsertResult`.
public final class BatchInsertResult: PersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: immutable; `result` holds a Bool, an Int or [ManagedObjectID].

    /// The kind of ``result``, as the request asked.
    public let resultType: BatchInsertRequestResultType
    /// `true` (``BatchInsertRequestResultType/statusOnly``), the objects' IDs
    /// (`[ManagedObjectID]`, ``BatchInsertRequestResultType/objectIDs``) or how many objects
    /// were written (`Int`, ``BatchInsertRequestResultType/count``).
    public let result: Any?
    /// Everything the insert changed, keyed as a did-save notification's user info
    /// (``InsertedObjectsKey`` for new rows, ``UpdatedObjectsKey`` for upserted ones): hand it
    /// to ``ManagedObjectContext/mergeChanges(fromRemoteContextSave:into:)``.
    public let changes: [AnyHashable: Any]

    init(resultType: BatchInsertRequestResultType, result: Any?, changes: BatchChanges) {
        self.resultType = resultType
        self.result = result
        self.changes = changes.userInfo
        super.init()
    }
}
