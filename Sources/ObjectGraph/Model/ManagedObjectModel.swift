import Foundation

/// A set of entities: the schema of an object graph, as Core Data's `NSManagedObjectModel`.
///
/// Build one in Swift — with the ``init(_:)`` builder, or the way Core Data code does, by
/// creating descriptions and assigning ``entities``. A model is mutable until a container loads
/// it; loading checks it (see ``validate()``) and freezes it, after which it can be shared
/// across queues.
public final class ManagedObjectModel: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: mutable only before freezing (a trap guards every setter after), and
    // read-only afterwards; the lock guards the freeze itself.

    /// The model's entities.
    public var entities: [EntityDescription] = [] {
        willSet { checkMutable() }
        didSet { for entity in entities { entity.managedObjectModel = self } }
    }
    /// Labels for this model version; they do not affect storage.
    public var versionIdentifiers: Set<String> = [] { willSet { checkMutable() } }
    /// For a model read from an Xcode model file: what the reader skipped or mapped with a
    /// difference (see ``XcodeModelReport``); `nil` for a model built in Swift.
    public internal(set) var importReport: XcodeModelReport?

    /// Problems that do not stop the model from loading (such as a missing inverse), found by
    /// the last ``validate()``.
    public private(set) var warnings: [ModelIssue] = []

    private let freezeLock = NSLock()
    private(set) var isFrozen = false
    private var entityByName: [String: EntityDescription] = [:]
    private var entityTable = NameTable<EntityDescription>()

    /// Creates an empty model; assign ``entities``.
    public init() {}

    /// The entities by name.
    public var entitiesByName: [String: EntityDescription] {
        if isFrozen { return entityByName }
        return Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entity named `name` (fast once the model is loaded).
    func entity(named name: String) -> EntityDescription? {
        isFrozen ? entityTable[name] : entitiesByName[name]
    }

    /// A readable summary, for logs and debugging.
    public var description: String { "ManagedObjectModel(\(entities.map(\.name).sorted().joined(separator: ", ")))" }

    func checkMutable() {
        precondition(!isFrozen, "ObjectGraph: cannot change a ManagedObjectModel after a container has loaded it")
    }

    /// Checks the model and, when it has no errors, freezes it. Called by containers at load;
    /// safe to call more than once.
    ///
    /// - Throws: ``ManagedObjectModelError`` listing every problem, each naming its entity and
    ///   property.
    public func validate() throws {
        // Interned before the freeze lock is taken: interning takes a lock of its own, and no
        // lock is taken while another is held (ARCHITECTURE.md, the lock rule).
        let unstoredScopes = entities.map { ObjectIDScope.interned(storeIdentifier: "", entityName: $0.name) }
        freezeLock.lock()
        defer { freezeLock.unlock() }
        if isFrozen { return }
        var checker = ModelChecker(model: self)
        try checker.check()
        warnings = checker.warnings
        entityByName = Dictionary(entities.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        entityTable = NameTable(entities.map { ($0.name, $0) })
        for (entity, unstoredScope) in zip(entities, unstoredScopes) {
            entity.frozenUnstoredScope = unstoredScope
            entity.frozenTransientSlots = entity.allProperties.indices.filter { entity.allProperties[$0].isTransient }
            // Computed here, before the entity is frozen, and kept from then on.
            let defaults = entity.defaultValues
            entity.frozenDefaultValues = defaults
            entity.frozenDefaultsAreTrivial = defaults.allSatisfy(\.isTrivial)
            entity.frozenDefaultChanges = entity.defaultChanges
            entity.frozenAttributeTypes = entity.allProperties.map { ($0 as? AttributeDescription)?.attributeType }
            entity.slotTable = NameTable(entity.allProperties.enumerated().map { ($1.name, $0) })
            entity.frozenSerial = EntityDescription.nextSerial()
            entity.isFrozen = true
            for property in entity.properties {
                property.isFrozen = true
                if let attribute = property as? AttributeDescription {
                    attribute.hasValueRules =
                        !attribute.minStoredValue.isNull || !attribute.maxStoredValue.isNull
                        || attribute.minLength != nil || attribute.maxLength != nil || attribute.regularExpression != nil
                        || !attribute.validationPredicates.isEmpty
                }
            }
        }
        // After every entity's own attributes have their `hasValueRules`: inherited ones too.
        for entity in entities {
            entity.frozenValidationPlan = ValidationPlan(entity.allProperties)
        }
        isFrozen = true
    }
}

/// One problem found in a model: its entity, property and what is wrong.
public struct ModelIssue: Sendable, Hashable, CustomStringConvertible {
    /// The entity concerned.
    public var entity: String
    /// The property concerned, if any.
    public var property: String?
    /// What is wrong.
    public var message: String

    /// A readable summary, for logs and debugging.
    public var description: String {
        "\(entity)\(property.map { ".\($0)" } ?? ""): \(message)"
    }
}

/// A model that cannot be loaded, with every problem found.
public struct ManagedObjectModelError: Error, Sendable, CustomStringConvertible {
    /// Every problem, each naming its entity and property.
    public var issues: [ModelIssue]

    /// A readable summary, for logs and debugging.
    public var description: String {
        "The managed object model is invalid (\(issues.count) problem\(issues.count == 1 ? "" : "s")):\n"
            + issues.map { "  - \($0)" }.joined(separator: "\n")
    }
}
