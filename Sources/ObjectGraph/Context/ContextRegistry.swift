/// The context's objects and the bookkeeping kept per object: which object stands for each ID,
/// which objects have unsaved changes, and the model lookups registering an object needs.
///
/// One owner for what every fetched, inserted or changed object touches, so that a change of
/// layout (objects found without hashing their IDs, bookkeeping in tables keyed by an object's
/// slot) changes this type, not the context's topics.
///
/// Invariants it keeps:
/// - **One object per ID.** An object is registered under its own ID only; its ID changes only
///   while it is unregistered (``replaceObjectIDs(_:)``). An entry is removed before its object
///   dies (``forget(_:deinitializing:)``, from `ManagedObject.deinit`), so every entry is alive.
/// - **Changed objects stay registered.** Every member of ``changed`` is held strongly there, so
///   it stays registered until a save, rollback, reset or merge takes it out; an object joins
///   ``changed`` once, marked ``ObjectFlags/tracked`` in its storage (``track(_:)``).
/// - **Temporary IDs are known.** When ``mayHoldTemporaryIDs`` is `false`, no changed object has
///   a temporary ID: a save looks for them only when it is `true`.
/// - **Lookups match the model.** The entities remembered by ``entity(of:in:)`` and
///   ``entityBound(to:in:)`` are the current model's: the context forgets them
///   (``forgetEntityLookups()``) whenever its coordinator or parent changes.
///
/// Used on the context's queue only, as every object it holds. Exclusivity is not checked
/// dynamically on its tables: each access is a short, non-overlapping read or write (as
/// `ManagedObject.storage`).
final class ContextRegistry {
    /// One object per ID (uniquing), held weakly.
    @exclusivity(unchecked) private var byID = ObjectRegistry()
    /// Objects with unsaved changes (inserted, updated or deleted), in the order they changed.
    @exclusivity(unchecked) private(set) var changed = ChangedObjects()
    /// Whether an object may have got a temporary ID since every changed object last had a
    /// permanent one.
    private(set) var mayHoldTemporaryIDs = false
    /// The last entity ``entity(of:in:)`` looked up, by ID scope.
    @exclusivity(unchecked) private var lastEntityLookup: (scope: ObjectIDScope, entity: EntityDescription)?
    /// The last class ``entityBound(to:in:)`` found the entity of: an import makes thousands of
    /// objects of one class in a row.
    @exclusivity(unchecked) private var lastBoundEntity: (type: ObjectIdentifier, entity: EntityDescription)?

    // MARK: Registered objects

    /// The object registered under `id`, or `nil`.
    @inline(__always)
    subscript(id: ManagedObjectID) -> ManagedObject? { byID[id] }

    /// The registered objects, in no particular order.
    var objects: [ManagedObject] { byID.values }

    /// How many objects are registered, for tests.
    var entryCount: Int { byID.entryCount }

    /// How many pages of keys the registered objects take, for tests.
    var pageCount: Int { byID.pagesInUse }

    /// Registers `object` under its ID (replacing whatever was registered under it).
    @inline(__always)
    func register(_ object: ManagedObject) {
        byID[object.objectID] = object
    }

    /// Unregisters whatever object `id` stands for.
    func unregister(_ id: ManagedObjectID) {
        byID[id] = nil
    }

    /// Unregisters `id` if `object` — being deinitialized — is what it holds.
    func forget(_ id: ManagedObjectID, deinitializing object: UnsafeMutableRawPointer) {
        byID.forget(id, deinitializing: object)
    }

    /// Makes room for `additional` more objects (a fetch's rows) without growing on the way.
    func reserveCapacity(forAdditional additional: Int) {
        byID.reserveCapacity(forAdditional: additional)
    }

    /// Unregisters every object and forgets every change (a reset), returning the objects that
    /// were registered.
    func removeAll() -> [ManagedObject] {
        let objects = byID.values
        byID.removeAll()
        changed.removeAll()
        mayHoldTemporaryIDs = false
        return objects
    }

    /// Gives objects their new IDs (old to new), keeping each registered under its own.
    func replaceObjectIDs(_ replaced: [ManagedObjectID: ManagedObjectID]) {
        for (old, new) in replaced {
            guard let object = byID.removeValue(forKey: old) else { continue }
            object.objectID = new
            byID[new] = object
        }
    }

    // MARK: Changed objects

    /// Adds `object` to the changed objects, unless it is tracked already (cheap after the
    /// first change).
    @inline(__always)
    func track(_ object: ManagedObject) {
        if !object.storage.flags.contains(.tracked) {
            object.storage.track()
            changed.insert(object)
        }
    }

    /// Removes `object` from the changed objects (saved, refreshed, forgotten).
    func untrack(_ object: ManagedObject) {
        changed.remove(object)
    }

    /// Empties the changed objects (after a save or rollback).
    func untrackAll() {
        changed.removeAll()
    }

    /// Records that an object got a temporary ID (its store could not reserve a key).
    func noteTemporaryID() {
        mayHoldTemporaryIDs = true
    }

    /// Records that no changed object holds a temporary ID any more.
    func noteNoTemporaryIDs() {
        mayHoldTemporaryIDs = false
    }

    // MARK: Entity lookups

    /// The entity of `id` in `model` (the last one found is remembered: a fetch registers rows
    /// of one entity after another).
    @inline(__always)
    func entity(of id: ManagedObjectID, in model: @autoclosure () -> ManagedObjectModel?) -> EntityDescription? {
        if let last = lastEntityLookup, last.scope === id.scope { return last.entity }
        guard let entity = model()?.entity(named: id.entityName) else { return nil }
        lastEntityLookup = (id.scope, entity)
        return entity
    }

    /// The entity of `model` whose `managedObjectClass` is `type`.
    func entityBound(to type: ManagedObject.Type, in model: @autoclosure () -> ManagedObjectModel?) -> EntityDescription? {
        if let last = lastBoundEntity, last.type == ObjectIdentifier(type) { return last.entity }
        guard let entity = model()?.entities.first(where: { $0.managedObjectClass == type }) else { return nil }
        lastBoundEntity = (ObjectIdentifier(type), entity)
        return entity
    }

    /// Forgets the entities looked up, when the model may have changed.
    func forgetEntityLookups() {
        lastEntityLookup = nil
        lastBoundEntity = nil
    }
}
