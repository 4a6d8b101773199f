/// Runs an actor's jobs with a ``ModelContext`` of its own, as SwiftData's `ModelExecutor`.
public protocol ModelExecutor: AnyObject, Executor {
    /// The executor's context, used only by the jobs the executor runs.
    var modelContext: ModelContext { get }
}

/// A ``ModelExecutor`` that runs one job at a time, as SwiftData's `SerialModelExecutor`: the
/// executor of a ``ModelActor``.
public protocol SerialModelExecutor: ModelExecutor, SerialExecutor {}

/// An actor with a model context of its own (see the `@ModelActor` macro), as SwiftData's
/// `ModelActor`: its executor is its ``modelExecutor``, so the actor's code runs on its
/// context's queue.
public protocol ModelActor: Actor {
    /// The container the actor's context belongs to.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor the actor runs on, holding the actor's context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's executor: its ``modelExecutor``, which must be a serial one (as
    /// ``DefaultSerialModelExecutor``).
    public nonisolated var unownedExecutor: UnownedSerialExecutor {
        guard let serial = modelExecutor as? any SerialExecutor else {
            preconditionFailure("ObjectGraphData: a ModelActor's modelExecutor must be a SerialModelExecutor, such as DefaultSerialModelExecutor")
        }
        return serial.asUnownedSerialExecutor()
    }

    /// The actor's context; use it only on the actor.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with `id` in the actor's context, if it is of type `T`.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as as: T.Type) -> T? {
        modelContext.model(for: id) as? T
    }
}
