import Foundation

/// An attribute of an entity, as Core Data's `NSAttributeDescription`.
///
/// ```swift
/// let title = AttributeDescription()
/// title.name = "title"; title.attributeType = .string; title.isOptional = true
/// ```
public final class AttributeDescription: PropertyDescription {
    /// The type of the attribute's values.
    public var attributeType: AttributeType = .string { willSet { checkMutable("attributeType") } }
    /// The value a newly inserted object starts with; converted to ``attributeType`` when the
    /// model is loaded (a value that does not convert is a model error).
    public var defaultValue: Any? { willSet { checkMutable("defaultValue") } }
    /// For `.transformable` attributes: the Codable type of the values (stored as JSON). Takes
    /// precedence over ``valueTransformerName``.
    public var transformableType: (any Codable.Type)? { willSet { checkMutable("transformableType") } }
    /// For `.transformable` attributes: the name of the ``AttributeValueTransformer`` in
    /// ``ValueTransformerRegistry`` that converts values to and from `Data`, as Core Data's
    /// `valueTransformerName` (`"NSSecureUnarchiveFromData"`, a custom name, or `nil`). With
    /// no name, or a name no transformer is registered under, values are `Data` as stored.
    public var valueTransformerName: String? { willSet { checkMutable("valueTransformerName") } }
    /// Smallest valid value (numbers and dates), checked at save.
    public var minValue: Any? { willSet { checkMutable("minValue") } }
    /// Largest valid value (numbers and dates), checked at save.
    public var maxValue: Any? { willSet { checkMutable("maxValue") } }
    /// Shortest valid string (in characters) or binary value (in bytes), checked at save.
    public var minLength: Int? { willSet { checkMutable("minLength") } }
    /// Longest valid string (in characters) or binary value (in bytes), checked at save.
    public var maxLength: Int? { willSet { checkMutable("maxLength") } }
    /// A regular expression (ICU syntax) every string value must match as a whole, checked at save.
    public var regularExpression: String? { willSet { checkMutable("regularExpression") } }
    /// Accepted for source compatibility; large values are always stored in the row.
    public var allowsExternalBinaryDataStorage = false
    /// For `.transformable` attributes: the name of the values' class, as Core Data's
    /// `attributeValueClassName` (Xcode's "Custom Class", e.g. `[String]`). Informative:
    /// ``transformableType`` or the transformer decides how values are stored.
    public var attributeValueClassName: String? { willSet { checkMutable("attributeValueClassName") } }
    /// For a derived attribute: its derivation expression, as Core Data's
    /// `NSDerivedAttributeDescription` (`count:(pages)`, or `pages.@count` as Xcode may write it).
    ///
    /// An SQLite store keeps the forms Core Data's SQL store keeps, with triggers, whoever
    /// writes: a to-one key path (`name`, `author.name`), `canonical:`, `lowercase:` or
    /// `uppercase:` of one, `@count` or `@sum` of a to-many relationship (`sum:(pages.words)`),
    /// and `now()` (the time of the save that inserted or last changed the object). The saving
    /// context's objects show the new values after a save, as committed values. Adding an
    /// SQLite store for a model with any other derivation fails with
    /// ``ObjectGraphError/Code/persistentStoreIncompatibleSchema``, as in Core Data. A
    /// PostgreSQL or in-memory store stores the values it is given. The expression is what the
    /// attribute's ``PropertyDescription/versionHash`` is made of, as in Core Data.
    public var derivationExpression: String? { willSet { checkMutable("derivationExpression") } }
    /// Whether a deleted object's value of this attribute is kept in persistent history, in
    /// the delete's ``PersistentHistoryChange/tombstone`` — as Core Data's
    /// `preservesValueInHistoryOnDeletion`. `false` by default; it does not change the model's
    /// version hash.
    public var preservesValueInHistoryOnDeletion = false { willSet { checkMutable("preservesValueInHistoryOnDeletion") } }

    /// Converted forms of the value options, set when the model is frozen.
    var defaultStoredValue: Value = .null
    var minStoredValue: Value = .null
    var maxStoredValue: Value = .null
    /// Whether a non-nil value can break a rule (range, length, pattern, predicates); set when
    /// the model is frozen, so saves skip attributes that have none.
    var hasValueRules = true

    /// Creates an empty attribute description; set ``PropertyDescription/name`` and
    /// ``attributeType`` before use.
    public override init() { super.init() }
}
