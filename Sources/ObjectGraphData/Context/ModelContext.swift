public import Foundation
public import ObjectGraph

/// Inserts, fetches, changes and saves models, as SwiftData's `ModelContext`; an ObjectGraph
/// `ManagedObjectContext` underneath.
///
/// ```swift
/// let context = ModelContext(container)
/// let book = Book(isbn: "978-0", title: "Dune")
/// context.insert(book)
/// try context.save()
/// let books = try context.fetch(FetchDescriptor<Book>(predicate: #Predicate { $0.title.starts(with: "D") }))
/// ```
///
/// A context and its models belong to one task or thread at a time (they are not
/// `Sendable`); each call runs on the ObjectGraph context's queue and returns when done.
public final class ModelContext {
    /// The container the context belongs to.
    ///
    /// A context made with ``init(_:)`` keeps its container alive. The container's
    /// ``ModelContainer/mainContext`` does not — the container owns it, and each holding the
    /// other would keep both, and every model of the main context, for good — so keep the
    /// container while you use its main context (as in SwiftData); reading this property of a
    /// main context whose container is gone traps. The context's other calls keep working:
    /// they need only the stores, which its ObjectGraph context holds.
    public var container: ModelContainer {
        if let ownedContainer { return ownedContainer }
        guard let mainContainer else {
            preconditionFailure("ObjectGraphData: the main context's ModelContainer was deallocated; keep the container while you use its mainContext")
        }
        return mainContainer
    }
    /// The container, held by a context made with ``init(_:)``.
    private let ownedContainer: ModelContainer?
    /// The container of a main context, which holds the context.
    private weak var mainContainer: ModelContainer?
    /// The container's schema, whose model classes the context makes models of.
    let schema: Schema
    /// Whether the container's configurations allow saves.
    let allowsSave: Bool
    /// The container's observers of statements and of in-memory evaluation.
    let statementObservers: [SQLStatementObserver]
    /// Whether this is its container's ``ModelContainer/mainContext``.
    let isMainContext: Bool
    /// The ObjectGraph context underneath, for what this API does not cover (use it inside
    /// its `performAndWait`).
    public let managedObjectContext: ManagedObjectContext
    /// The models the context has handed out, by their managed objects.
    let registry = ModelRegistry()
    /// The context as its models reach it: without a weak reference (see ``ModelContextLink``).
    let link: ModelContextLink
    /// The entity of the last model made for a managed object, and its model class: a fetch
    /// makes many models of one entity, and looking the class up by name cost a string hash each.
    ///
    /// This and the other bookkeeping below are `@exclusivity(unchecked)`: a context is used by
    /// one thread at a time (it is not `Sendable`), and the runtime's access checks cost
    /// several per insert and fetched model.
    @exclusivity(unchecked) private var lastModelType: (entity: EntityDescription, type: any PersistentModel.Type)?
    /// The model class last inserted, and its entity name.
    @exclusivity(unchecked) private var lastInsertedType: (type: ObjectIdentifier, entityName: String)?
    /// Whether changes are saved without a call to ``save()``: by ``processPendingChanges()``,
    /// and, on the ``ModelContainer/mainContext``, on the main actor soon after each change.
    @exclusivity(unchecked) public var autosaveEnabled = false
    /// Whether an autosave is scheduled on the main actor.
    @exclusivity(unchecked) var autosaveScheduled = false
    /// The undo manager recording the context's changes, as SwiftData's; `nil` (the default)
    /// records nothing. SwiftUI's `.modelContainer(for:isUndoEnabled: true)` sets one on the
    /// main context; here set it yourself: `container.mainContext.undoManager = UndoManager()`
    /// (ObjectGraph's `UndoManager`, which stands in for Foundation's, missing on Linux).
    ///
    /// Each group of the manager undoes the inserts, changes and deletes made in it — with
    /// the relationships and delete rules they touched — and redoes them; undoing past a save
    /// makes the changes again unsaved ones (and an autosaving context saves them).
    public var undoManager: UndoManager? {
        get { read { managedObjectContext.undoManager } }
        set {
            read {
                managedObjectContext.undoManager = newValue
                managedObjectContext.undoDidApply = newValue == nil ? nil : { [weak self] in self?.noteChange() }
            }
        }
    }

    /// A new context of `container`, with autosave off.
    public convenience init(_ container: ModelContainer) {
        self.init(container, managedObjectContext: container.persistentContainer.newBackgroundContext(), isMainContext: false)
    }

    /// A context of `container` over `managedObjectContext`: a private-queue one, or the main
    /// context's main-queue one (`isMainContext`), which refers to its container weakly.
    init(_ container: ModelContainer, managedObjectContext: ManagedObjectContext, isMainContext: Bool) {
        if isMainContext {
            ownedContainer = nil
            mainContainer = container
        } else {
            ownedContainer = container
        }
        schema = container.schema
        allowsSave = container.allowsSave
        statementObservers = container.statementObservers
        self.isMainContext = isMainContext
        self.managedObjectContext = managedObjectContext
        link = ModelContextLink(managedObjectContext)
        managedObjectContext.name = "ModelContext"
        // SwiftData's `.unique` is an upsert: a conflicting insert updates the stored object.
        managedObjectContext.mergePolicy = .mergeByPropertyObjectTrump
        managedObjectContext.automaticallyMergesChangesFromParent = true
        link.context = self
    }

    deinit {
        // The context's models may outlive it: from now on they find no context.
        link.contextDidEnd()
    }

    // MARK: Running on the context's queue

    /// Runs `body` on the ObjectGraph context's queue. Reads make no changes, so the
    /// context's pending changes are left for the next write, fetch or save to process.
    func read<T>(_ body: () throws -> T) rethrows -> T {
        try managedObjectContext.performAndWaitDeferringPendingChanges(body)
    }

    /// Runs a change on the context's queue, then schedules an autosave if enabled.
    func write<T>(_ body: () throws -> T) rethrows -> T {
        let result = try managedObjectContext.performAndWait(body)
        noteChange()
        return result
    }

    // MARK: Models and managed objects

    /// The model over `object`, registering a new one of the entity's class if needed.
    func model(for object: ManagedObject) -> any PersistentModel {
        registry.model(for: object) {
            let model = modelType(of: object.entity).init(backingData: _ModelBacking())
            model._$backingData.adopt(object, in: self)
            return model
        }
    }

    /// The model over `object`, of type `T` (a fetch of `T`'s entity returns its objects or
    /// its sub-entities'), registering a new one if needed: the registry is hashed once, and a
    /// model made here of type `T` needs no cast.
    func model<T: PersistentModel>(for object: ManagedObject, as _: T.Type) -> T {
        let type = modelType(of: object.entity)
        guard ObjectIdentifier(type) == ObjectIdentifier(T.self) else { return model(for: object) as! T }
        var made: T?
        let model = registry.model(for: object) {
            let model = T(backingData: _ModelBacking())
            model._$backingData.adopt(object, in: self)
            made = model
            return model
        }
        return made ?? (model as! T)
    }

    /// The model class of `entity`.
    private func modelType(of entity: EntityDescription) -> any PersistentModel.Type {
        if let last = lastModelType, last.entity === entity { return last.type }
        guard let found = schema.typesByEntityName[entity.name] else {
            preconditionFailure("ObjectGraphData: the schema has no model class for entity \(entity.name)")
        }
        lastModelType = (entity, found)
        return found
    }

    /// The managed object behind `model`, inserting the model first when it is new.
    func managedObject(for model: any PersistentModel) -> ManagedObject {
        if let object = model._$backingData.managedObject {
            precondition(
                model._$backingData.context === self,
                "ObjectGraphData: a model of one context cannot be related to a model of another; fetch it in this context with model(for:)"
            )
            return object
        }
        insert(model)
        return model._$backingData.managedObject!
    }

    // MARK: Inserting and deleting

    /// Inserts a new model, and the new models it relates to; it is stored at the next save.
    ///
    /// Inserting a model already in this context does nothing.
    public func insert<T: PersistentModel>(_ model: T) {
        insert(model as any PersistentModel)
    }

    private func insert(_ model: any PersistentModel) {
        if let context = model._$backingData.context {
            precondition(context === self, "ObjectGraphData: \(type(of: model)) is already in another context")
            return
        }
        let entityName = entityName(of: type(of: model))
        // An insert is announced (objects-did-change) with the next write, fetch or save, not
        // one notification per model.
        defer { noteChange() }
        managedObjectContext.performAndWaitDeferringPendingChanges {
            let object: ManagedObject
            do {
                object = try managedObjectContext.insertObject(entityName: entityName)
            } catch {
                preconditionFailure("ObjectGraphData: \(entityName) is not in the container's schema (\(error))")
            }
            registry.register(model, for: object)
            // Values of attributes' own Swift types are stored typed, in any order (each sets
            // its own attribute only; of a property kept twice, the later value is stored
            // later); the rest in the order of their keys, since storing a related model
            // inserts it, and so decides its place among the new objects — each property's
            // last value only (see ``_ModelBacking``'s `setPending`).
            let pending = model._$backingData.attach(to: object, in: self)
            var general: [(key: String, value: Any)] = []
            for index in pending.indices {
                switch pending[index].storage {
                case .typed(let value): value.write(to: object, pending[index].slot!.managed)
                case .general(let box):
                    if !_ModelBacking.isSuperseded(index, in: pending) { general.append((pending[index].key, box.value)) }
                }
            }
            if !general.isEmpty {
                for (key, value) in general.sorted(by: { $0.key < $1.key }) {
                    ModelValue.store(value, forKey: key, in: object, context: self)
                }
            }
        }
    }

    /// The entity name of `type`, remembered for the next insert of the same type (working it
    /// out is a `String(describing:)` each time).
    private func entityName(of type: any PersistentModel.Type) -> String {
        if let last = lastInsertedType, last.type == ObjectIdentifier(type) { return last.entityName }
        let name = type.entityName
        lastInsertedType = (ObjectIdentifier(type), name)
        return name
    }

    /// Deletes `model` at the next save, applying its relationships' delete rules.
    public func delete<T: PersistentModel>(_ model: T) {
        guard let object = model._$backingData.managedObject, model._$backingData.context === self else { return }
        write { managedObjectContext.delete(object) }
    }

    /// Deletes every model of `model` type matching `predicate` (all of them without one).
    ///
    /// - Throws: when the fetch fails.
    public func delete<T: PersistentModel>(model: T.Type, where predicate: Predicate<T>? = nil, includeSubclasses: Bool = true) throws {
        let models = try fetch(FetchDescriptor<T>(predicate: predicate))
        for model in models { delete(model) }
    }

    // MARK: Looking models up

    /// The model with `persistentModelID` in this context: registered, or loaded from the
    /// store when first used.
    ///
    /// Traps for an identifier of a model never inserted (as SwiftData does).
    public func model(for persistentModelID: PersistentIdentifier) -> any PersistentModel {
        guard let objectID = persistentModelID.objectID else {
            preconditionFailure("ObjectGraphData: \(persistentModelID) names a model that was never inserted")
        }
        let object = read { managedObjectContext.object(with: objectID) }
        return model(for: object)
    }

    /// The model with `persistentModelID` if this context already holds it.
    public func registeredModel<T: PersistentModel>(for persistentModelID: PersistentIdentifier) -> T? {
        guard let objectID = persistentModelID.objectID,
            let object = read({ managedObjectContext.registeredObject(for: objectID) })
        else { return nil }
        return registry[object] as? T
    }

    // MARK: Changes

    /// Whether the context has unsaved insertions, changes or deletions.
    public var hasChanges: Bool { read { managedObjectContext.hasChanges } }

    /// The models inserted and not yet saved.
    public var insertedModelsArray: [any PersistentModel] {
        read { managedObjectContext.insertedObjects.sorted(by: ModelValue.storeOrder).map { model(for: $0) } }
    }

    /// The saved models changed and not yet saved.
    public var changedModelsArray: [any PersistentModel] {
        read { managedObjectContext.updatedObjects.sorted(by: ModelValue.storeOrder).map { model(for: $0) } }
    }

    /// The models deleted and not yet saved.
    public var deletedModelsArray: [any PersistentModel] {
        read { managedObjectContext.deletedObjects.sorted(by: ModelValue.storeOrder).map { model(for: $0) } }
    }
}

@available(*, unavailable)
extension ModelContext: Sendable {}

/// A context as its models reach it, one per context, shared by all its models: a strong
/// reference to this link and an unowned one to the context, which its `deinit` clears. A
/// weak reference to the context cost a side-table load per property read (and made every
/// retain of the context take the slow path).
@usableFromInline
final class ModelContextLink {
    /// The context; `nil` once it is deallocated.
    unowned(unsafe) var context: ModelContext?
    /// Whether the context is alive (``context`` not `nil`), asked without retaining it (on
    /// every model property read: unchecked, as the model backing's fields are, see
    /// ``_ModelBacking``).
    @usableFromInline @exclusivity(unchecked) var isAlive = true
    /// The context's ObjectGraph context, to tell whether a read runs on its queue.
    let managedObjectContext: ManagedObjectContext
    /// The same, for ``isOnQueue``: asked through it, a read retains and releases no context
    /// (the ObjectGraph context's count lives in a side table — it is weakly referenced — so
    /// each retain took the slow path).
    private let unretainedManagedObjectContext: Unmanaged<ManagedObjectContext>

    /// The thread-specific key of the context's queue's marker (see ``isOnQueue``).
    @usableFromInline let queueKey: pthread_key_t
    /// What the word of ``queueKey`` holds on the context's queue, while the context is alive;
    /// `nil` once it is deallocated, so that no read takes the fast path of ``isOnQueue``.
    @usableFromInline @exclusivity(unchecked) var queueMarker: UnsafeMutableRawPointer?

    init(_ managedObjectContext: ManagedObjectContext) {
        self.managedObjectContext = managedObjectContext
        unretainedManagedObjectContext = Unmanaged.passUnretained(managedObjectContext)
        (queueKey, queueMarker) = managedObjectContext.queueMarker
    }

    /// Called by the context's `deinit`: its models find no context from now on.
    func contextDidEnd() {
        context = nil
        isAlive = false
        queueMarker = nil
    }

    /// Whether the context is alive and the calling code runs on its queue: one comparison of
    /// a thread-specific word, which a model's every property read asks (four calls down to the
    /// queue cost more than the read itself), and the queue's own answer when they differ.
    @inlinable var isOnQueue: Bool {
        if let queueMarker, pthread_getspecific(queueKey) == queueMarker { return true }
        return isAlive && isOnQueueAsked
    }

    /// Whether the calling code runs on the context's queue, asked of the queue.
    @usableFromInline var isOnQueueAsked: Bool {
        // The link holds the ObjectGraph context strongly, and the caller holds the link.
        unretainedManagedObjectContext._withUnsafeGuaranteedRef { $0.isOnQueue }
    }

    /// Runs `body` on the context's queue and waits (a model read off its context's queue),
    /// leaving pending changes for the next write, fetch or save.
    @usableFromInline func readOnQueue<T>(_ body: () -> T) -> T {
        managedObjectContext.performAndWaitDeferringPendingChanges(body)
    }
}
