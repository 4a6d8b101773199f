import Foundation

/// A relationship between entities, as Core Data's `NSRelationshipDescription`.
///
/// `maxCount` 1 makes a to-one relationship; 0 (unbounded) or more than 1 a to-many one, as in
/// Core Data. Setting one side of a relationship on an object updates the inverse at once.
public final class RelationshipDescription: PropertyDescription {
    /// The entity at the other end.
    public var destinationEntity: EntityDescription? {
        get { destinationStorage }
        set {
            checkMutable("destinationEntity")
            destinationStorage = newValue
            destinationEntityName = newValue?.name
        }
    }
    /// The relationship back from the destination; a missing inverse is a warning at load.
    public var inverseRelationship: RelationshipDescription? {
        get { inverseStorage }
        set {
            checkMutable("inverseRelationship")
            inverseStorage = newValue
            inverseName = newValue?.name
        }
    }
    /// The fewest related objects a valid object has (to-many), checked at save.
    public var minCount: Int = 0 { willSet { checkMutable("minCount") } }
    /// The most related objects: 1 is to-one, 0 means unbounded. Core Data's default is 1.
    public var maxCount: Int = 1 { willSet { checkMutable("maxCount") } }
    /// What deleting the source object does to the destination objects.
    public var deleteRule: DeleteRule = .nullify { willSet { checkMutable("deleteRule") } }
    /// Whether a to-many relationship keeps its objects in order (values are arrays).
    public var isOrdered: Bool = false { willSet { checkMutable("isOrdered") } }

    /// Whether this relationship holds many objects (`maxCount != 1`).
    public var isToMany: Bool { maxCount != 1 }

    // Names let the builder refer to entities before they exist; resolved at freeze.
    var destinationEntityName: String?
    var inverseName: String?
    /// Unowned, not weak, for the reason given at `PropertyDescription.entity`: the model owns
    /// both ends.
    private unowned var destinationStorage: EntityDescription?
    private weak var inverseStorage: RelationshipDescription?

    /// Creates an empty relationship description; set its name, destination and counts.
    public override init() { super.init() }

    func resolve(destination: EntityDescription?, inverse: RelationshipDescription?) {
        destinationStorage = destination
        inverseStorage = inverse
    }
}
