import Foundation

/// An entity: a kind of managed object with attributes and relationships, as Core Data's
/// `NSEntityDescription`.
///
/// Entities form inheritance trees: sub-entities inherit their parent's properties, are stored
/// in the root entity's table, and are fetched with their parent. An abstract entity has no
/// instances of its own.
public final class EntityDescription: CustomStringConvertible {
    /// The entity's name, unique in its model.
    public var name: String = "" { willSet { checkMutable("name") } }
    /// The class instantiated for this entity's objects; ``ManagedObject`` unless bound to a
    /// subclass. Swift on Linux cannot resolve a class from its name, so bind the class itself.
    // Unchecked: read for every fetched object, and a frozen model's never changes.
    @exclusivity(unchecked) public var managedObjectClass: ManagedObject.Type = ManagedObject.self {
        willSet { checkMutable("managedObjectClass") }
    }
    /// The name of ``managedObjectClass`` (read-only: set the class itself).
    public var managedObjectClassName: String { String(describing: managedObjectClass) }
    /// Whether the entity has no instances of its own (only its sub-entities do).
    public var isAbstract: Bool = false { willSet { checkMutable("isAbstract") } }
    /// The entity's own properties (not the inherited ones).
    public var properties: [PropertyDescription] = [] {
        willSet { checkMutable("properties") }
        didSet { for property in properties { property.entity = self } }
    }
    /// The entity's direct sub-entities; setting them makes this entity their ``superentity``.
    public var subentities: [EntityDescription] = [] {
        willSet { checkMutable("subentities") }
        didSet {
            for sub in subentities {
                sub.superentityStorage = self
                sub.superentityName = name
            }
        }
    }
    /// The entity this one inherits from.
    public var superentity: EntityDescription? { superentityStorage }
    /// Sets of property names whose values must be unique together among this entity's
    /// objects (and its sub-entities'), as Core Data's `uniquenessConstraints`.
    public var uniquenessConstraints: [[String]] = [] { willSet { checkMutable("uniquenessConstraints") } }
    /// Compound indexes on this entity's table.
    public var indexes: [FetchIndexDescription] = [] { willSet { checkMutable("indexes") } }
    /// Free-form information for the app; ObjectGraph ignores it.
    public var userInfo: [String: String] = [:]
    /// The name this entity had in the previous model version, for migrations.
    public var renamingIdentifier: String? { willSet { checkMutable("renamingIdentifier") } }
    /// A string that makes this entity's version hash differ when its stored form does not
    /// change (Xcode's "Hash Modifier"), for migrations.
    public var versionHashModifier: String? { willSet { checkMutable("versionHashModifier") } }
    /// The class name an Xcode model gives the entity (`representedClassName`), kept for tools
    /// such as `objectgraph-gen`; Linux cannot find a class by name, so ``managedObjectClass``
    /// is what binds the entity.
    public var representedClassName: String? { willSet { checkMutable("representedClassName") } }

    /// The model this entity belongs to (set when the entity joins a model).
    public internal(set) weak var managedObjectModel: ManagedObjectModel?

    /// Creates an empty entity; set its ``name`` and ``properties``.
    public init() {}

    // MARK: Derived (valid once the model is loaded)

    /// All properties by name, inherited ones included.
    public var propertiesByName: [String: PropertyDescription] {
        Dictionary(allProperties.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }
    /// All attributes by name, inherited ones included.
    public var attributesByName: [String: AttributeDescription] {
        Dictionary(
            allProperties.compactMap { $0 as? AttributeDescription }.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
    }
    /// All relationships by name, inherited ones included.
    public var relationshipsByName: [String: RelationshipDescription] {
        Dictionary(
            allProperties.compactMap { $0 as? RelationshipDescription }.map { ($0.name, $0) },
            uniquingKeysWith: { first, _ in first }
        )
    }
    /// The relationships whose destination is `entity`.
    public func relationships(forDestination entity: EntityDescription) -> [RelationshipDescription] {
        allProperties.compactMap { $0 as? RelationshipDescription }.filter { $0.destinationEntity === entity }
    }
    /// Whether this entity is `entity` or inherits from it.
    public func isKindOf(entity: EntityDescription) -> Bool {
        var current: EntityDescription? = self
        while let candidate = current {
            if candidate === entity { return true }
            current = candidate.superentity
        }
        return false
    }

    /// A readable summary, for logs and debugging.
    public var description: String { "EntityDescription(\(name))" }

    // MARK: Compiled state, set when the model is frozen

    // Set once when the model is frozen (under its lock) and only read afterwards, on every
    // property access: exclusivity is not checked dynamically on the hot ones.

    /// Unowned, not weak, for the reason given at `PropertyDescription.entity`.
    unowned var superentityStorage: EntityDescription?
    var superentityName: String?
    @exclusivity(unchecked) var isFrozen = false
    /// Inherited properties first, then the entity's own; a property's `slot` is its index.
    @exclusivity(unchecked) var allProperties: [PropertyDescription] = []
    @exclusivity(unchecked) var slotByName: [String: Int] = [:]
    /// `slotByName` as a ``NameTable``, for the accessors' lookups; set when the model is frozen.
    @exclusivity(unchecked) var slotTable = NameTable<Int>()
    @exclusivity(unchecked) var attributeSlots: [Int] = []
    var relationshipSlots: [Int] = []
    /// Core Data's `Z_ENT`: this entity's number in the model (1-based, by name).
    var entityCode = 0
    /// The codes of this entity and every entity below it, for fetches.
    var fetchableEntityCodes: [Int] = []
    /// Each slot's default value, set when the model is frozen.
    @exclusivity(unchecked) var frozenDefaultValues: ContiguousArray<Value>?
    /// Whether every default value holds no reference (see ``Value/isTrivial``), set when the
    /// model is frozen: a new object then gets a byte copy of them.
    @exclusivity(unchecked) var frozenDefaultsAreTrivial = false
    /// The attribute slots whose default is not nil, which a new object counts as changed;
    /// set when the model is frozen.
    @exclusivity(unchecked) var frozenDefaultChanges = SlotMask()
    /// The ID scope of objects of this entity not yet in a store (see `ManagedObject.init`),
    /// set when the model is frozen.
    @exclusivity(unchecked) var frozenUnstoredScope: ObjectIDScope?
    /// The slots of transient properties, which rows from the store do not fill; set when
    /// the model is frozen.
    @exclusivity(unchecked) var frozenTransientSlots: [Int]?
    /// Which slots validation checks, and how; set when the model is frozen.
    @exclusivity(unchecked) var frozenValidationPlan: ValidationPlan?
    /// Per slot, the attribute type (`nil` for relationships), for the typed accessors.
    @exclusivity(unchecked) var frozenAttributeTypes: [AttributeType?] = []
    /// A number no other frozen entity of this process has (from 1, below `0xFFFF_FFFF`; 0
    /// until frozen), by which a ``ManagedPropertySlot`` knows the entity its slot is for.
    @exclusivity(unchecked) var frozenSerial: UInt64 = 0
    /// The top of this entity's inheritance tree, whose table holds the whole tree.
    var rootEntity: EntityDescription { superentity?.rootEntity ?? self }

    func checkMutable(_ member: String) {
        precondition(!isFrozen, "ObjectGraph: cannot change \(member) of entity '\(name)': its model has been loaded by a container and is immutable")
    }

    /// The property in `slot`.
    func property(at slot: Int) -> PropertyDescription { allProperties[slot] }

    /// The slot of the property named `key` (a fast lookup once the model is frozen).
    @inline(__always)
    func slot(forKey key: String) -> Int? {
        isFrozen ? slotTable[key] : slotByName[key]
    }
}

/// A compound index over properties of one entity, as Core Data's `NSFetchIndexDescription`.
public struct FetchIndexDescription: Sendable, Hashable {
    /// The index's name, unique in the model.
    public var name: String
    /// The indexed properties, in order.
    public var elements: [FetchIndexElementDescription]

    /// Creates an index named `name` over `elements`.
    public init(name: String, elements: [FetchIndexElementDescription]) {
        self.name = name
        self.elements = elements
    }
}

/// One property of a ``FetchIndexDescription``.
public struct FetchIndexElementDescription: Sendable, Hashable {
    /// The indexed property's name.
    public var propertyName: String
    /// Whether the index sorts this element ascending.
    public var isAscending: Bool

    /// Creates an index element on the property named `propertyName`.
    public init(propertyName: String, isAscending: Bool = true) {
        self.propertyName = propertyName
        self.isAscending = isAscending
    }

    /// Creates an index element on `property`, as Core Data's
    /// `NSFetchIndexElementDescription(property:collationType:)`.
    public init(property: PropertyDescription, isAscending: Bool = true) {
        self.init(propertyName: property.name, isAscending: isAscending)
    }
}

extension EntityDescription {
    /// Inserts a new object of the entity named `entityName` into `context`, as Core Data's
    /// class method. Traps when the model has no such entity (a programming error); use
    /// ``ManagedObjectContext/insertObject(entityName:)`` for names that come from data.
    public static func insertNewObject(forEntityName entityName: String, into context: ManagedObjectContext) -> ManagedObject {
        do {
            return try context.insertObject(entityName: entityName)
        } catch {
            preconditionFailure("ObjectGraph: insertNewObject(forEntityName: \"\(entityName)\"): \(error)")
        }
    }

    /// The entity named `entityName` in the model of `context`'s coordinator.
    public static func entity(forEntityName entityName: String, in context: ManagedObjectContext) -> EntityDescription? {
        context.persistentStoreCoordinator?.managedObjectModel.entitiesByName[entityName]
    }
}
