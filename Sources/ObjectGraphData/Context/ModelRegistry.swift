import ObjectGraph

/// The models a ``ModelContext`` has handed out, by their managed objects: one model per
/// object, as SwiftData keeps one model per persistent identifier in a context.
///
/// An open-addressing table keyed by the object's address, with linear probing. A
/// `[ObjectIdentifier: any PersistentModel]` hashed each key with SipHash (~100 instructions
/// a fetched model, besides its find and insert); an address needs no such hash: a
/// multiplication spreads it. The table holds its models strongly, and an object is alive
/// while its model is (the model holds it), so an address names one object while it is a key
/// here.
///
/// Used on the context's queue only, as the context's other bookkeeping is (so its fields are
/// not checked for exclusivity at run time either).
final class ModelRegistry {
    /// The keys: an object's address, or 0 for an empty slot.
    @exclusivity(unchecked) private var keys: UnsafeMutablePointer<UInt>
    /// The models, initialized where the key is not 0.
    @exclusivity(unchecked) private var models: UnsafeMutablePointer<any PersistentModel>
    /// The number of slots, a power of two.
    @exclusivity(unchecked) private var capacity: Int
    /// `64 - log2(capacity)`: the shift that takes a hash's top bits as a slot.
    @exclusivity(unchecked) private var shift: Int
    /// The number of models.
    @exclusivity(unchecked) private(set) var count = 0

    init() {
        capacity = 16
        shift = 64 - 4
        keys = .allocate(capacity: capacity)
        keys.initialize(repeating: 0, count: capacity)
        models = .allocate(capacity: capacity)
    }

    deinit {
        for slot in 0..<capacity where keys[slot] != 0 { (models + slot).deinitialize(count: 1) }
        keys.deallocate()
        models.deallocate()
    }

    /// The key of `object`.
    @inline(__always)
    private static func key(_ object: ManagedObject) -> UInt { UInt(bitPattern: ObjectIdentifier(object)) }

    /// The first slot to look at for `key` (Fibonacci hashing: the product's top bits).
    @inline(__always)
    private func home(_ key: UInt) -> Int { Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> UInt(shift)) }

    /// The slot holding `key`, or the empty slot where it would go.
    @inline(__always)
    private func slot(of key: UInt) -> Int {
        var slot = home(key)
        while true {
            let found = keys[slot]
            if found == key || found == 0 { return slot }
            slot = (slot + 1) & (capacity - 1)
        }
    }

    /// The model of `object`, if one was registered.
    subscript(object: ManagedObject) -> (any PersistentModel)? {
        let slot = slot(of: Self.key(object))
        return keys[slot] == 0 ? nil : models[slot]
    }

    /// Whether `object` has a model.
    func contains(_ object: ManagedObject) -> Bool { keys[slot(of: Self.key(object))] != 0 }

    /// The model of `object`, made by `make` and registered when it has none (`make` must not
    /// use the registry).
    @inline(__always)
    func model(for object: ManagedObject, orInsert make: () -> any PersistentModel) -> any PersistentModel {
        let key = Self.key(object)
        var slot = slot(of: key)
        if keys[slot] != 0 { return models[slot] }
        let model = make()
        if count + 1 > capacity / 4 * 3 {
            grow(toHold: count + 1)
            slot = self.slot(of: key)
        }
        keys[slot] = key
        (models + slot).initialize(to: model)
        count += 1
        return model
    }

    /// Registers `model` as the model of `object`, a new object (which has none yet).
    func register(_ model: any PersistentModel, for object: ManagedObject) {
        let registered = self.model(for: object) { model }
        assert(registered === model, "ObjectGraphData: a new object already had a model")
    }

    /// Forgets the model of `object`; returns whether it had one.
    @discardableResult
    func remove(_ object: ManagedObject) -> Bool {
        var hole = slot(of: Self.key(object))
        guard keys[hole] != 0 else { return false }
        (models + hole).deinitialize(count: 1)
        keys[hole] = 0
        count -= 1
        // Backward-shift deletion: move up each later key of the run whose home is at or
        // before the hole, so that every key stays reachable from its home without tombstones.
        var slot = hole
        while true {
            slot = (slot + 1) & (capacity - 1)
            let key = keys[slot]
            if key == 0 { return true }
            let distanceFromHome = (slot - home(key)) & (capacity - 1)
            let distanceFromHole = (slot - hole) & (capacity - 1)
            guard distanceFromHome >= distanceFromHole else { continue }
            keys[hole] = key
            (models + hole).moveInitialize(from: models + slot, count: 1)
            keys[slot] = 0
            hole = slot
        }
    }

    /// Makes room for `count` models without growing again (a fetch reserves for its objects at
    /// once: growing by doubling rehashed about log2(n) times over a large first fetch).
    func reserveCapacity(_ count: Int) {
        if count > capacity / 4 * 3 { grow(toHold: count) }
    }

    /// Moves the models into a table large enough for `needed` at most three quarters full.
    private func grow(toHold needed: Int) {
        var newCapacity = capacity
        while needed > newCapacity / 4 * 3 { newCapacity *= 2 }
        let oldKeys = keys, oldModels = models, oldCapacity = capacity
        capacity = newCapacity
        shift = 64 - newCapacity.trailingZeroBitCount
        keys = .allocate(capacity: newCapacity)
        keys.initialize(repeating: 0, count: newCapacity)
        models = .allocate(capacity: newCapacity)
        for old in 0..<oldCapacity where oldKeys[old] != 0 {
            let slot = slot(of: oldKeys[old])
            keys[slot] = oldKeys[old]
            (models + slot).moveInitialize(from: oldModels + old, count: 1)
        }
        oldKeys.deallocate()
        oldModels.deallocate()
    }
}
