import ObjectGraph

extension ManagedObjectContext {
    /// Runs `body` and saves, starting over from the store's current state when the save finds
    /// that another writer changed the same objects since they were read (optimistic locking).
    ///
    /// SPoT's writes derive values from what they read (a spot's visible-photo count, a photo's
    /// hidden state beside an import's new title), so a conflict is retried as a whole rather
    /// than merged key by key. A uniqueness conflict — another process inserted the same photo,
    /// spot or photographer first — is retried the same way: the next attempt finds the stored
    /// object and updates it, so two refreshes at once create no duplicates. Call on the
    /// context's queue.
    func savingRetryingConflicts<T>(attempts: Int = 25, _ body: () throws -> T) throws -> T {
        var attempt = 1
        while true {
            let result = try body()
            do {
                if hasChanges { try save() }
                return result
            } catch let error as ObjectGraphError
                where (error.code == .managedObjectMerge || error.code == .constraintConflict) && attempt < attempts
            {
                reset()
                attempt += 1
            }
        }
    }
}
