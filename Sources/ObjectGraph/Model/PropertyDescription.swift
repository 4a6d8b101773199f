import Foundation

/// A property of an entity: the common part of attributes and relationships, as Core Data's
/// `NSPropertyDescription`.
///
/// Descriptions are mutable until a container loads their model; mutating one afterwards traps,
/// as Core Data raises.
public class PropertyDescription: CustomStringConvertible {
    /// The property's name, its key for ``ManagedObject/value(forKey:)`` and in predicates.
    public var name: String = "" { willSet { checkMutable("name") } }
    /// Whether `nil` is a valid value. Core Data's default is `true`.
    public var isOptional: Bool = true { willSet { checkMutable("isOptional") } }
    /// Whether the property lives in memory only: never stored, never fetched.
    @exclusivity(unchecked) public var isTransient: Bool = false { willSet { checkMutable("isTransient") } }
    /// Whether the store keeps an index on this property (relationships: their foreign key).
    public var isIndexed: Bool = false { willSet { checkMutable("isIndexed") } }
    /// Free-form information for the app; ObjectGraph ignores it.
    public var userInfo: [String: String] = [:] { willSet { checkMutable("userInfo") } }
    /// The name this property had in the previous model version, for migrations.
    public var renamingIdentifier: String? { willSet { checkMutable("renamingIdentifier") } }
    /// A string that makes this property's version hash differ when its stored form does not
    /// change (Xcode's "Hash Modifier"), for migrations.
    public var versionHashModifier: String? { willSet { checkMutable("versionHashModifier") } }
    /// Predicates each value must satisfy (evaluated with the value as `SELF`) and the message
    /// reported for each; set with ``setValidationPredicates(_:withValidationWarnings:)``.
    public private(set) var validationPredicates: [FetchPredicate] = []
    /// The messages paired with ``validationPredicates``.
    public private(set) var validationWarnings: [String] = []

    /// The entity that holds this property (set when the property joins an entity).
    ///
    /// Unowned, as Core Data's: the entity owns its properties. Not `weak`, because a weak
    /// reference gives the entity a side table, and then every managed object's retain and
    /// release of its entity takes the runtime's slow path (about 200 instructions per fetched
    /// object). Reading it after the entity is gone traps.
    public internal(set) unowned var entity: EntityDescription?

    /// Set when the owning model is frozen; mutation afterwards is a programming error.
    var isFrozen = false
    /// The position of this property's value in a managed object's storage (set at freeze).
    var slot = -1

    /// Creates an empty description; set ``name`` and the rest before use.
    public init() {}

    /// Sets validation predicates (each evaluated with the value as `SELF`) and their messages.
    public func setValidationPredicates(_ predicates: [FetchPredicate]?, withValidationWarnings warnings: [String]?) {
        checkMutable("validationPredicates")
        validationPredicates = predicates ?? []
        validationWarnings = warnings ?? []
    }

    func checkMutable(_ member: String) {
        precondition(
            !isFrozen,
            "ObjectGraph: cannot change \(member) of property '\(name)': its model has been loaded by a container and is immutable"
        )
    }

    /// A readable summary, for logs and debugging.
    public var description: String { "\(type(of: self))(\(entity?.name ?? "?").\(name))" }
}
