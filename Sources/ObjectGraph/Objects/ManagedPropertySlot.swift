import Synchronization

/// Where a `@Managed` property's value lives in its object: the property's key, and the slot
/// it was last found at, for the entity it was found in. `@Managed` declares one per property
/// (a `private static let` beside it); not for direct use.
///
/// A typed accessor then finds its slot with one atomic load and a comparison, instead of
/// looking its key up by name on every call. The cache holds the slot of one entity at a time
/// (identified by a number given when its model is frozen): a class bound to entities of
/// several models looks the key up again when the entity changes, with the same result.
public final class ManagedPropertySlot: Sendable {
    /// The model's property name.
    public let key: String
    /// The frozen entity's serial number in the high 32 bits, the slot in the low ones. No
    /// entity has the initial word's serial (`EntityDescription.frozenSerial`: 0 until frozen,
    /// then below `0xFFFF_FFFF`).
    private let cached = Atomic<UInt64>(UInt64.max)

    /// A property stored under the model's property named `key`.
    public init(_ key: String) {
        self.key = key
    }

    /// The slot of the property in objects of `entity`, `nil` when the entity has no such
    /// property.
    @inline(__always)
    func slot(in entity: EntityDescription) -> Int? {
        let word = cached.load(ordering: .relaxed)
        if word >> 32 == entity.frozenSerial { return Int(truncatingIfNeeded: word & 0xFFFF_FFFF) }
        return lookUpSlot(in: entity)
    }

    /// The slot remembered for `entity`, `nil` unless it was looked up before for this very
    /// entity (which is then frozen: only a frozen entity's slot is remembered, so its
    /// `frozenAttributeTypes` cover the slot).
    @inline(__always)
    func cachedSlot(in entity: EntityDescription) -> Int? {
        let word = cached.load(ordering: .relaxed)
        return word >> 32 == entity.frozenSerial ? Int(truncatingIfNeeded: word & 0xFFFF_FFFF) : nil
    }

    /// Looks the key up by name, and remembers the slot of a frozen entity (whose slots never
    /// change). The word is written whole: a reader sees an entity's serial with its own slot.
    @inline(never)
    private func lookUpSlot(in entity: EntityDescription) -> Int? {
        guard let slot = entity.slot(forKey: key) else { return nil }
        if entity.isFrozen, entity.frozenSerial != 0, slot < 0xFFFF_FFFF {
            cached.store(entity.frozenSerial << 32 | UInt64(slot), ordering: .relaxed)
        }
        return slot
    }
}

extension EntityDescription {
    /// The serial numbers handed out so far (see ``frozenSerial``).
    private static let serials = Atomic<UInt64>(0)

    /// A new entity serial number; 0 (never cached) once 32 bits run out.
    static func nextSerial() -> UInt64 {
        let serial = serials.add(1, ordering: .relaxed).newValue
        return serial < 0xFFFF_FFFF ? serial : 0
    }
}
