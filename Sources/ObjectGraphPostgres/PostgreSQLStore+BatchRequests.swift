package import ObjectGraph

// Batch requests on PostgreSQL are not written yet: each says so, naming the server, and
// changes nothing.
extension PostgreSQLStore {
    package func batchInsert(entityName: String, objects: [[String: Any]]) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID]) {
        throw unsupported("batch insert into \(entityName)")
    }

    package func batchInsert(
        entityName: String,
        objectsFrom handler: (ManagedObject) -> Bool
    ) throws -> (changes: BatchChanges, objectIDs: [ManagedObjectID]) {
        throw unsupported("batch insert into \(entityName)")
    }

    package func batchUpdate(entityName: String, predicate: PredicateNode?, includesSubentities: Bool, values: [String: Any]) throws -> BatchChanges {
        throw unsupported("batch update of \(entityName)")
    }

    package func batchDelete(matching descriptor: FetchDescriptor) throws -> BatchChanges {
        throw unsupported("batch delete of \(descriptor.entity)")
    }

    package func batchDelete(objectIDs: [ManagedObjectID]) throws -> BatchChanges {
        throw unsupported("batch delete of \(objectIDs.first?.entityName ?? "objects")")
    }

    /// The error of a request this store cannot run yet.
    private func unsupported(_ what: String) -> ObjectGraphError {
        ObjectGraphError(.invalidRequest, "the PostgreSQL store at \(serverDescription) cannot run a \(what) yet; nothing was changed")
    }
}
