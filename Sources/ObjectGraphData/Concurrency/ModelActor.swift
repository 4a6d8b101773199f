/// Runs an actor's work with its own ``ModelContext``, as SwiftData's `ModelExecutor`.
public protocol ModelExecutor: AnyObject, Sendable {
    /// The executor's context, used only on its actor.
    var modelContext: ModelContext { get }
}

/// The executor `@ModelActor` gives an actor: a context of its own, made with the actor.
public final class DefaultSerialModelExecutor: ModelExecutor, @unchecked Sendable {
    // @unchecked Sendable: the context is only used from the actor that owns this executor.

    /// The actor's context.
    public let modelContext: ModelContext

    /// An executor over `modelContext`.
    public init(modelContext: ModelContext) {
        self.modelContext = modelContext
    }
}

/// An actor with a model context of its own (see the `@ModelActor` macro).
public protocol ModelActor: Actor {
    /// The container the actor's context belongs to.
    nonisolated var modelContainer: ModelContainer { get }
    /// The executor holding the actor's context.
    nonisolated var modelExecutor: any ModelExecutor { get }
}

extension ModelActor {
    /// The actor's context; use it only on the actor.
    public var modelContext: ModelContext { modelExecutor.modelContext }

    /// The model with `id` in the actor's context, if it is of type `T`.
    public subscript<T: PersistentModel>(id: PersistentIdentifier, as as: T.Type) -> T? {
        modelContext.model(for: id) as? T
    }
}
