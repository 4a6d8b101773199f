import Foundation
public import ObjectGraph
public import Observation

/// Where a model's values live, as SwiftData's `BackingData`: in the model itself until it is
/// inserted into a context, then in the context's managed object.
///
/// Stored in every `@Model` class by the macro (`_$backingData`), not used directly. A value
/// in the model, not an object of its own: a fetched model was two allocations and two
/// deinits, and a property read loaded the backing before its fields.
///
/// A property read calls its mutating ``getValue(forKey:slot:of:_:)`` on the model's stored
/// backing, in place: nothing in a read calls out to code that could use the model. A change
/// runs through the static ``setValue(_:forKey:slot:of:_:)``, which tells the model's
/// observers — code that may read the model — outside any access to the backing.
public struct _ModelBacking {
    /// The values of a model not yet inserted, in the order set (a property set again is
    /// kept again, after the others; see ``setPending(_:)``). An array, not a dictionary: a
    /// new model has a handful, and hashing each key cost more than comparing it.
    var values: [PendingValue] = []
    /// The managed object, once inserted or fetched.
    @usableFromInline private(set) var object: ManagedObject?
    /// The link to the context the model belongs to.
    @usableFromInline private(set) var link: ModelContextLink?
    /// ``object`` and ``link`` again, for property reads, which use them without retaining
    /// them: the backing holds them (they are set once, with the model's context) and nothing
    /// in a read can release them, and their retains and releases cost more than the read.
    @usableFromInline private(set) var unretainedObject: Unmanaged<ManagedObject>?
    @usableFromInline private(set) var unretainedLink: Unmanaged<ModelContextLink>?
    /// The context the model belongs to; `nil` before insertion and once the context is gone.
    var context: ModelContext? { link?.context }
    /// Set on key-path probes: reads record their key instead of returning values.
    @usableFromInline var recorder: _ModelKeyPathRecorder?
    /// Whether a read has told the model's registrar of an access: before that no one can
    /// observe the model (observers register by reading), so a change need not tell the
    /// registrar — which takes its lock twice per change (a new model's initializer sets every
    /// property through its setter).
    @usableFromInline var accessed = false
    /// The identity of a model not yet inserted, made when first asked.
    private var detachedID: UUID?

    /// Empty backing data, for a new model.
    public init() {}

    /// Makes the backing refer to `object` in `context`: a fetched model's, in place in the
    /// model (made over empty backing data). A backing made apart and passed to the model's
    /// initializer was copied and destroyed whole (~230 instructions a fetched model).
    mutating func adopt(_ object: ManagedObject, in context: ModelContext) {
        self.object = object
        self.link = context.link
        unretainedObject = Unmanaged.passUnretained(object)
        unretainedLink = Unmanaged.passUnretained(context.link)
    }

    /// Moves a new model's values into `object`, now that it is inserted into `context`.
    mutating func attach(to object: ManagedObject, in context: ModelContext) -> [PendingValue] {
        adopt(object, in: context)
        defer { values = [] }
        return values
    }

    // MARK: A new model's values

    /// Sets the value a new model starts with (its initializer's or its default), for the
    /// property in `slot`.
    public mutating func setInitialValue<Value>(_ value: Value, forKey key: String, slot: _PropertySlot) {
        if object == nil || !store(value, forKey: key) { setPending(PendingValue(key: key, general: value, slot: slot)) }
    }

    /// Sets the value a new model starts with, for the property in `slot` whose Swift type is
    /// an attribute's own: kept typed, and stored typed when the model is inserted.
    ///
    /// Inlinable, so that the model's module makes the kept value of the property's own type
    /// in place (unspecialized, the call went through the type's witnesses).
    @inlinable
    public mutating func setInitialValue<Value: _ModelAttributeValue>(_ value: Value, forKey key: String, slot: _PropertySlot) {
        if object == nil { keepInitialValue(value._pending, forKey: key, slot: slot) } else { setInitialValue(value as Any, forKey: key, slot: slot) }
    }

    /// Keeps `value`, of the property `key` in `slot`, for a model not yet inserted.
    @usableFromInline mutating func keepInitialValue(_ value: _PendingAttributeValue, forKey key: String, slot: _PropertySlot) {
        setPending(PendingValue(key: key, pending: value, slot: slot))
    }

    /// Records a new model's value. It is appended, not looked for among the earlier ones: a
    /// new model's initializer sets each property once or twice (its default, then its
    /// initializer's value), and the search cost more than the rest of keeping the value.
    /// The last value of a property wins (in ``pendingValue(forKey:slot:)``, ``getValue(forKey:)``
    /// and ``ModelContext``'s insert); the values superseded are dropped when the array is full.
    mutating func setPending(_ value: consuming PendingValue) {
        if values.count == values.capacity {
            // Room for a typical model's properties at once, instead of growing 1, 2, 4, 8, 16.
            if values.isEmpty {
                values.reserveCapacity(16)
            } else {
                dropSupersededPending()
            }
        }
        values.append(value)
    }

    /// Removes the kept values that a later value of the same property replaces, so that a
    /// property set again and again keeps one value.
    private mutating func dropSupersededPending() {
        var kept: [PendingValue] = []
        kept.reserveCapacity(values.capacity)
        for (index, value) in values.enumerated() where !Self.isSuperseded(index, in: values) {
            kept.append(value)
        }
        values = kept
    }

    /// Whether a value after `index` in `values` is of the same property as the one at `index`.
    static func isSuperseded(_ index: Int, in values: [PendingValue]) -> Bool {
        let value = values[index]
        for later in values[(index + 1)...] where later.isOf(key: value.key, slotID: value.slotID) { return true }
        return false
    }

    /// The value kept for the property in `slot` of a model not yet inserted.
    @usableFromInline func pendingValue(forKey key: String, slot: _PropertySlot) -> _PendingAttributeValue? {
        // The last kept value of the property is its value (see ``setPending(_:)``).
        for value in values.reversed() where value.isOf(key: key, slotID: ObjectIdentifier(slot)) {
            if case .typed(let pending) = value.storage { return pending }
            return nil
        }
        return nil
    }

    // MARK: Reading

    /// A new model's observers, for its `_$observationRegistrar` (made here: the model's file
    /// need not import Observation).
    @inlinable
    public static func makeObservationRegistrar() -> ObservationRegistrar { ObservationRegistrar() }

    /// Tells the model's observers that `keyPath` of `model` was read. The registrar is the
    /// model's own stored `let` (`_$observationRegistrar`): Observation's types are resilient,
    /// and one kept here, as an optional made on first use, was copied through its value
    /// witnesses several times a read.
    @inlinable
    mutating func access<Model: PersistentModel, Value>(_ model: Model, _ keyPath: KeyPath<Model, Value>) {
        accessed = true
        model._$observationRegistrar.access(model, keyPath: keyPath)
    }

    /// The value of the property `key` of `model`, registered with the observation tracking
    /// in progress under `keyPath` (read by name: `slot` is for the overload below).
    public mutating func getValue<Model: PersistentModel, Value>(
        forKey key: String,
        slot: _PropertySlot,
        of model: Model,
        _ keyPath: KeyPath<Model, Value>
    ) -> Value {
        if recorder == nil { access(model, keyPath) }
        return getValue(forKey: key)
    }

    /// The value of the property `key` of `model` whose Swift type is an attribute's own, read
    /// typed through `slot` (no lookup by name, no `Any` box and cast), registered with the
    /// observation tracking in progress under `keyPath`. `@Model`'s getter calls this one for
    /// such properties (Swift picks the more constrained overload).
    ///
    /// Inlinable, so that the model's module specializes it for the property's type: the read
    /// is then a direct call of ObjectGraph's typed accessor, with no generic dispatch.
    @inlinable
    public mutating func getValue<Model: PersistentModel, Value: _ModelAttributeValue>(
        forKey key: String,
        slot: _PropertySlot,
        of model: Model,
        _ keyPath: KeyPath<Model, Value>
    ) -> Value {
        if recorder == nil {
            access(model, keyPath)
            if let unretainedObject, let unretainedLink {
                // On the context's queue (the main context on the main actor, a model actor's
                // context in the actor) the read runs in place.
                if unretainedLink._withUnsafeGuaranteedRef({ $0.isOnQueue }) {
                    return unretainedObject._withUnsafeGuaranteedRef { Value._read($0, slot.managed) }
                }
                if let value = readOffQueue(slot, as: Value.self) { return value }
            } else if let pending = pendingValue(forKey: key, slot: slot), let value = Value._fromPending(pending) {
                return value
            }
        }
        return getValue(forKey: key)
    }

    /// The value in `slot`, read on the context's queue from another; `nil` once the context
    /// is gone.
    @inlinable func readOffQueue<Value: _ModelAttributeValue>(_ slot: _PropertySlot, as _: Value.Type) -> Value? {
        guard let object, let link, link.isAlive else { return nil }
        return link.readOnQueue { Value._read(object, slot.managed) }
    }

    /// The value of the property `key`.
    public func getValue<Value>(forKey key: String) -> Value {
        if let recorder {
            recorder.record(key)
            guard let placeholder = ModelValue.placeholder(Value.self, recorder: recorder) else {
                preconditionFailure("ObjectGraphData: cannot follow a key path through '\(key)' of type \(Value.self)")
            }
            return placeholder
        }
        guard let object else {
            guard let value = values.last(where: { $0.key == key })?.value as? Value else {
                preconditionFailure("ObjectGraphData: '\(key)' was read before it was set")
            }
            return value
        }
        guard let context else {
            preconditionFailure("ObjectGraphData: '\(key)' was read after the model's ModelContext was deallocated; keep the context while you use its models")
        }
        return context.read {
            let raw = object.value(forKey: key)
            if let raw, let value = raw as? Value { return value }
            if raw == nil, let value = ModelValue.composite(key, of: object, as: Value.self, in: context) { return value }
            guard let value = ModelValue.decode(raw, as: Value.self, in: context) else {
                preconditionFailure(
                    "ObjectGraphData: \(object.entity.name).\(key) holds \(raw.map { "\(type(of: $0))" } ?? "nil"), not \(Value.self)"
                        + (object.isDeleted ? " (the model was deleted)" : "")
                )
            }
            return value
        }
    }

    // MARK: Changing

    /// Runs `change`, a change of `keyPath` of `model`, telling its registrar if anyone may
    /// observe it (outside any access to the model's backing: observers may read the model).
    @inline(__always)
    private static func withMutation<Model: PersistentModel, Value>(of model: Model, _ keyPath: KeyPath<Model, Value>, _ change: () -> Void) {
        if model._$backingData.accessed {
            model._$observationRegistrar.withMutation(of: model, keyPath: keyPath, change)
        } else {
            change()
        }
    }

    /// Sets the property `key` of `model` (`slot` is for the overload below), reporting the
    /// change to its observers under `keyPath`.
    public static func setValue<Model: PersistentModel, Value>(
        _ value: Value,
        forKey key: String,
        slot: _PropertySlot,
        of model: Model,
        _ keyPath: KeyPath<Model, Value>
    ) {
        withMutation(of: model, keyPath) {
            let backing = model._$backingData
            if backing.object == nil || !backing.store(value, forKey: key) {
                model._$backingData.setPending(PendingValue(key: key, general: value, slot: slot))
            }
        }
    }

    /// Sets the property `key` of `model` whose Swift type is an attribute's own, typed
    /// through `slot`, reporting the change to its observers under `keyPath`.
    public static func setValue<Model: PersistentModel, Value: _ModelAttributeValue>(
        _ value: Value,
        forKey key: String,
        slot: _PropertySlot,
        of model: Model,
        _ keyPath: KeyPath<Model, Value>
    ) {
        withMutation(of: model, keyPath) {
            let backing = model._$backingData
            guard let object = backing.object, let context = backing.context else {
                model._$backingData.setPending(PendingValue(key: key, typed: value, slot: slot))
                return
            }
            context.write { value._write(to: object, slot.managed) }
        }
    }

    /// Stores `value` as the property `key` of the inserted model; `false` when the model is
    /// not in a context (not inserted, or its context is gone). Called on a copy of the
    /// model's backing: the write posts the context's change notifications, whose observers
    /// may use the model.
    func store<Value>(_ value: Value, forKey key: String) -> Bool {
        guard let object, let context else { return false }
        context.write {
            ModelValue.store(value, forKey: key, in: object, context: context)
        }
        return true
    }

    // MARK: State

    /// The model's identifier.
    mutating func persistentIdentifier(of type: any PersistentModel.Type) -> PersistentIdentifier {
        if let object, let context {
            return context.read { PersistentIdentifier(object.objectID) }
        }
        if detachedID == nil { detachedID = UUID() }
        return PersistentIdentifier(entityName: type.entityName, detachedID: detachedID!)
    }

    /// The managed object, read through a context's queue.
    var managedObject: ManagedObject? { object }

    var isDeleted: Bool {
        guard let object, let context else { return false }
        return context.read { object.isDeleted || (object.managedObjectContext == nil && !object.objectID.isTemporaryID) }
    }

    var hasChanges: Bool {
        guard let object, let context else { return false }
        return context.read { object.hasChanges }
    }
}

/// Finds the property names behind key paths of models (`\Book.author?.name` is
/// `"author.name"`), by reading them on probe models whose accessors record their key.
public final class _ModelKeyPathRecorder {
    private(set) var keys: [String] = []
    private var probes: [AnyObject] = []

    init() {}

    func record(_ key: String) { keys.append(key) }

    /// A probe model of `type`.
    func probe(of type: any PersistentModel.Type) -> any PersistentModel {
        var backing = _ModelBacking()
        backing.recorder = self
        let model = type.init(backingData: backing)
        probes.append(model)
        return model
    }

    /// The dotted name behind `keyPath` on `Root`, or `nil` when it reads no persisted property.
    static func name<Root: PersistentModel>(of keyPath: PartialKeyPath<Root>) -> String? {
        if let property = Root.schemaMetadata.first(where: { $0.keypath == keyPath }) { return property.name }
        if let leaf = compositeLeafName(of: keyPath) { return leaf }
        let recorder = _ModelKeyPathRecorder()
        let probe = recorder.probe(of: Root.self) as! Root
        _ = probe[keyPath: keyPath]
        return recorder.keys.isEmpty ? nil : recorder.keys.joined(separator: ".")
    }

    /// The attribute behind `\Root.address.city`, a leaf of a composite (a `Codable` struct)
    /// property: `address_city`.
    private static func compositeLeafName<Root: PersistentModel>(of keyPath: PartialKeyPath<Root>) -> String? {
        for property in Root.schemaMetadata {
            guard let layout = CompositeLayout.of(property.valueType) else { continue }
            for leaf in layout.leaves where property.keypath.appending(path: leaf.keyPath) == keyPath {
                return CompositeLayout.attributeName(property.name, leaf.name)
            }
        }
        return nil
    }

    /// The dotted name behind `keyPath` on a root of type `root`, when that is a model.
    static func name(of keyPath: AnyKeyPath, on root: Any.Type) -> String? {
        guard let modelType = root as? any PersistentModel.Type else { return nil }
        return open(modelType, keyPath)
    }

    private static func open<Root: PersistentModel>(_ type: Root.Type, _ keyPath: AnyKeyPath) -> String? {
        guard let partial = keyPath as? PartialKeyPath<Root> else { return nil }
        return name(of: partial)
    }
}
