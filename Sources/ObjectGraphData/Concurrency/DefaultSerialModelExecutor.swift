import ObjectGraph

/// The executor `@ModelActor` gives an actor, as SwiftData's: it runs the actor's jobs one at
/// a time on its context's queue (the ObjectGraph context's private queue, or the main queue
/// for the main context), so everything the actor does with its ``ModelContext`` runs in
/// place on that queue, with no hop per call.
public final class DefaultSerialModelExecutor: SerialModelExecutor, @unchecked Sendable {
    // @unchecked Sendable: the context is only used by the jobs this executor runs, one at a
    // time on the context's queue.

    /// The actor's context.
    public let modelContext: ModelContext

    /// An executor running its jobs on `modelContext`'s queue.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }

    /// Runs `job` on the context's queue, after the jobs enqueued before it.
    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        modelContext.managedObjectContext.enqueueOnQueue {
            job.runSynchronously(on: executor)
        }
    }

    /// This executor, unowned (the actor holds it through its `modelExecutor`).
    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Traps unless called on the context's queue: what `assumeIsolated` asks of code that
    /// runs there without the actor having scheduled it (in a `performAndWait`, say).
    public func checkIsolated() {
        precondition(
            modelContext.managedObjectContext.isOnQueue,
            "ObjectGraphData: not on the model actor's context queue"
        )
    }
}
