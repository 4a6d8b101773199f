import Foundation

extension ManagedObjectContext {
    /// Keeps a store error met where the caller could not be told at once — a fault fired by a
    /// property getter, a relationship read, a merge — so the next save or fetch throws it and
    /// the next objects-did-change names `object`.
    func recordStoreError(_ error: any Error, for object: ManagedObject?, while what: String) {
        tracker.recordStoreError(error, for: object.map { [$0] } ?? [], while: what)
    }

    /// ``recordStoreError(_:for:while:)`` for one error that concerns several objects.
    func recordStoreError(_ error: any Error, for objects: [ManagedObject], while what: String) {
        tracker.recordStoreError(error, for: objects, while: what)
    }

    /// Throws the store errors kept since the last save or fetch — the error itself when there
    /// is one, else one that counts them and carries the first's cause — and forgets them.
    func throwUnreportedStoreErrors() throws {
        if let error = tracker.takeUnreportedError() { throw error }
    }
}
