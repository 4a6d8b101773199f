public import Foundation

/// The result of a request that runs in the background, as Core Data's
/// `NSPersistentStoreAsynchronousResult`: its progress, its error, and a way to cancel it.
///
/// ``AsynchronousFetchResult`` is the one kind ObjectGraph runs.
public class PersistentStoreAsynchronousResult: PersistentStoreResult, @unchecked Sendable {
    // @unchecked Sendable: `operationError` is written once, on the context's queue, before the
    // completion runs; the progress is thread-safe; the context is only handed back.

    /// The context that runs the request.
    public let managedObjectContext: ManagedObjectContext
    /// The request's progress: its total is the number of objects to read, and it completes
    /// as rows are read. Cancelling it cancels the request.
    public let progress: Progress?
    /// Why the request failed, or was cancelled (`CocoaError(.userCancelled)`, Core Data's
    /// `NSUserCancelledError`); `nil` while it runs and after it succeeded.
    public internal(set) var operationError: (any Error)?

    init(context: ManagedObjectContext, progress: Progress) {
        managedObjectContext = context
        self.progress = progress
        super.init()
    }

    /// Stops the request: reading stops at the next page of rows, and the completion sees no
    /// final result and a cancellation error. Does nothing once the completion has run.
    public func cancel() {
        progress?.cancel()
    }
}
