import Foundation

/// An object in an object graph, as Core Data's `NSManagedObject`.
///
/// Use it directly with ``value(forKey:)`` and ``setValue(_:forKey:)``, or subclass it and
/// declare typed properties once with ``Managed()``:
///
/// ```swift
/// final class Photo: ManagedObject {
///     @Managed var title: String?
///     @Managed var views: Int64
///     @Managed var tags: Set<Tag>
/// }
/// ```
///
/// A managed object belongs to one context and is used on that context's queue only; it is not
/// `Sendable`. Pass its ``objectID`` to other queues.
open class ManagedObject: Hashable, CustomStringConvertible {
    /// The object's identity, permanent from insert onwards (temporary only when the store
    /// could not reserve a key at insert; see ``ManagedObjectID/isTemporaryID``).
    @exclusivity(unchecked) public internal(set) var objectID: ManagedObjectID
    /// The object's entity.
    public let entity: EntityDescription
    /// The context the object belongs to; `nil` for an object not (or no longer) in a context.
    public internal(set) var managedObjectContext: ManagedObjectContext? {
        get { contextReference?.context }
        set { contextReference = newValue?.objectReference }
    }

    /// The context's reference to itself, shared by all its objects; `nil` outside a context.
    @exclusivity(unchecked) private var contextReference: ContextReference?

    /// The object's state. Exclusivity is not checked dynamically here: an object is used on
    /// its context's queue only, and every access is a short, non-overlapping read or write
    /// (the checks cost ~10 % of fetches and inserts).
    @exclusivity(unchecked) var storage = ObjectStorage()

    /// Creates an object of `entity` and inserts it into `context` (when not `nil`), as Core
    /// Data's designated initializer. Subclasses that override it must call `super`.
    public required init(entity: EntityDescription, insertInto context: ManagedObjectContext?) {
        self.entity = entity
        // A placeholder until the object is inserted or registered (no lookup for a frozen model's entity).
        let scope = entity.frozenUnstoredScope ?? ObjectIDScope.interned(storeIdentifier: "", entityName: entity.name)
        objectID = ManagedObjectID(scope: scope, primaryKey: 0)
        if let context { context.insert(self) }
    }

    deinit {
        // The registry holds objects unretained: the last release (on the context's queue)
        // takes the object out of it.
        managedObjectContext?.registry.forget(objectID, deinitializing: Unmanaged.passUnretained(self).toOpaque())
    }

    /// Creates an object of the entity bound to this class and inserts it into `context`.
    ///
    /// Traps when no entity of the context's model is bound to this class (a programming
    /// error, as in Core Data).
    public convenience init(context: ManagedObjectContext) {
        guard let entity = context.entityBound(to: Self.self) else {
            preconditionFailure(
                "ObjectGraph: no entity of the context's model has managedObjectClass \(Self.self); bind it with EntityDescription.managedObjectClass"
            )
        }
        self.init(entity: entity, insertInto: context)
    }

    // MARK: State

    /// Whether the object's values are not loaded yet (they load on first access).
    public var isFault: Bool { storage.flags.contains(.fault) }
    /// Whether the object was inserted and not yet saved.
    public var isInserted: Bool { storage.flags.contains(.inserted) }
    /// Whether the object was deleted (and, before the save, will be removed from the store).
    public var isDeleted: Bool { storage.flags.contains(.deleted) }
    /// Whether the object has unsaved changes to its values (an inserted or deleted object too).
    public var isUpdated: Bool {
        !storage.flags.contains(.inserted) && !storage.flags.contains(.deleted) && hasPersistentChangedValues
    }
    /// Whether the object is inserted, updated or deleted.
    public var hasChanges: Bool {
        storage.flags.contains(.inserted) || storage.flags.contains(.deleted) || hasPersistentChangedValues
    }
    /// Whether any stored (non-transient) property changed since the last save.
    public var hasPersistentChangedValues: Bool {
        if storage.hasNoChangedSlots && storage.toMany.values.allSatisfy({ !$0.hasChanges }) { return false }
        for slot in storage.changed.slots where !entity.allProperties[slot].isTransient { return true }
        for (slot, state) in storage.toMany where state.hasChanges && !entity.allProperties[slot].isTransient { return true }
        return false
    }

    // MARK: Life-cycle hooks

    /// Called once when the object is inserted into a context; set initial values here.
    open func awakeFromInsert() {}
    /// Called when the object's values are loaded from the store.
    open func awakeFromFetch() {}
    /// Called before a save writes the object; changes made here are saved too.
    open func willSave() {}
    /// Called after a save wrote the object.
    open func didSave() {}
    /// Called when the object is about to be deleted, before delete rules run.
    open func prepareForDeletion() {}
    /// Called before the object's values are discarded (turned into a fault).
    open func willTurnIntoFault() {}
    /// Called after the object's values were discarded.
    open func didTurnIntoFault() {}

    // MARK: Validation

    /// Checks the object before its insert is saved; override to add rules, calling `super`.
    ///
    /// - Throws: ``ObjectGraphError`` listing every failing key (or a ``ValidationFailure``).
    open func validateForInsert() throws { try throwIfInvalid(propertyFailures()) }

    /// Checks the object before its update is saved; override to add rules, calling `super`.
    open func validateForUpdate() throws { try throwIfInvalid(propertyFailures()) }

    /// Checks that the object may be deleted: a `.deny` relationship that still holds objects
    /// refuses it. Override to add rules, calling `super`.
    open func validateForDelete() throws { try throwIfInvalid(denyFailures()) }

    /// Checks one value against the rules of the property `key` (type, required, range,
    /// length, pattern, validation predicates).
    ///
    /// - Throws: ``ObjectGraphError`` naming the key and the broken rule.
    open func validateValue(_ value: Any?, forKey key: String) throws { try validateSingleValue(value, forKey: key) }

    // MARK: Hashable, description

    /// Identity: equal only when both are the same instance.
    public static func == (lhs: ManagedObject, rhs: ManagedObject) -> Bool { lhs === rhs }
    /// Hashes the instance's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
    /// What `Set` and `Dictionary` hash an object by: its address, mixed with the table's
    /// seed, instead of `Hasher`'s SipHash (a context keeps its inserted and changed objects
    /// in sets; see ``ManagedObjectID/_rawHashValue(seed:)``).
    public final func _rawHashValue(seed: Int) -> Int {
        mixedHash(UInt64(UInt(bitPattern: ObjectIdentifier(self))), seed: seed)
    }

    /// A readable summary, for logs and debugging.
    open var description: String {
        let kind = isFault ? "<fault>" : isDeleted ? "<deleted>" : ""
        var text = "<\(type(of: self)) \(entity.name) \(objectID.uriRepresentation().absoluteString)\(kind.isEmpty ? "" : " " + kind)"
        if !isFault && !storage.values.isEmpty {
            let pairs = entity.allProperties.compactMap { property -> String? in
                guard let attribute = property as? AttributeDescription else { return nil }
                let value = attribute.publicValue(from: storage.values[attribute.slotIndex(in: entity)])
                return "\(attribute.name)=\(value.map { "\($0)" } ?? "nil")"
            }
            text += " {" + pairs.joined(separator: ", ") + "}"
        }
        return text + ">"
    }
}

@available(*, unavailable, message: "Managed objects belong to their context's queue; pass objectID across queues")
extension ManagedObject: @unchecked Sendable {}

extension PropertyDescription {
    /// The slot of this property in objects of `entity` (inherited properties keep their slot).
    func slotIndex(in entity: EntityDescription) -> Int {
        slot >= 0 && slot < entity.allProperties.count && entity.allProperties[slot] === self ? slot : entity.slotByName[name] ?? -1
    }
}

/// A weak reference to a context, one per context, which each of its objects holds strongly.
///
/// A weak reference per object would cost each object a weak assignment, load and destruction
/// (about 150 instructions per fetched object); holding this box costs a retain and a release.
/// The context still goes away when its last user lets go, and its objects then see `nil`.
final class ContextReference {
    weak var context: ManagedObjectContext?
}
