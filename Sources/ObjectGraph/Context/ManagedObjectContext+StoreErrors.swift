import Foundation

extension ManagedObjectContext {
    /// How many unreported store errors a context keeps in full; later ones are counted.
    private static let keptStoreErrors = 20

    /// Keeps a store error met where the caller could not be told at once — a fault fired by a
    /// property getter, a relationship read, a merge — so the next save or fetch throws it and
    /// the next objects-did-change names `object`.
    func recordStoreError(_ error: any Error, for object: ManagedObject?, while what: String) {
        recordStoreError(error, for: object.map { [$0] } ?? [], while: what)
    }

    /// ``recordStoreError(_:for:while:)`` for one error that concerns several objects.
    func recordStoreError(_ error: any Error, for objects: [ManagedObject], while what: String) {
        let wrapped = error as? ObjectGraphError ?? ObjectGraphError(.persistentStoreOperation, "could not \(what)", underlying: error)
        if unreportedStoreErrors.count < Self.keptStoreErrors { unreportedStoreErrors.append(wrapped) }
        for object in objects where pendingReadFailures[object] == nil { pendingReadFailures[object] = wrapped }
    }

    /// Throws the store errors kept since the last save or fetch — the error itself when there
    /// is one, else one that counts them and carries the first's cause — and forgets them.
    func throwUnreportedStoreErrors() throws {
        guard let first = unreportedStoreErrors.first else { return }
        let count = unreportedStoreErrors.count
        unreportedStoreErrors = []
        if count == 1 { throw first }
        throw ObjectGraphError(
            first.code,
            "\(count)\(count == Self.keptStoreErrors ? " or more" : "") store reads failed since the last save or fetch; the first: \(first.message)",
            underlying: first,
            file: first.cause?.file
        )
    }
}
