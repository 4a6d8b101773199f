import Foundation

extension ObjectGraphError {
    /// `error` when a store passes it on as it is: an ``ObjectGraphError`` (already saying
    /// what failed), or an ``OptimisticLockingFailure`` its context resolves; `nil` for any
    /// other error — the database client's own — which the store wraps in an
    /// ``ObjectGraphError`` naming the store and the operation.
    ///
    /// Every store's last `catch` between its database client and a context:
    ///
    /// ```swift
    /// } catch {
    ///     throw ObjectGraphError.passedOn(error) ?? ObjectGraphError(.persistentStoreOperation, "…", underlying: error)
    /// }
    /// ```
    package static func passedOn(_ error: any Error) -> (any Error)? {
        switch error {
        case let error as ObjectGraphError: error
        case let failure as OptimisticLockingFailure: failure
        default: nil
        }
    }
}
