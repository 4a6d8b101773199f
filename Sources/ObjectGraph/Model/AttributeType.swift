import Foundation

/// The type of an attribute's values, as Core Data's `NSAttributeType` (minus the prefix).
///
/// Values come back from ``ManagedObject/value(forKey:)`` as these Swift types: `.string`
/// `String`, `.boolean` `Bool`, `.integer16/32/64` `Int16`/`Int32`/`Int64`, `.double` `Double`,
/// `.float` `Float`, `.decimal` `Decimal`, `.date` `Date`, `.binaryData` `Data`, `.uuid` `UUID`,
/// `.uri` `URL`, `.transformable` the attribute's Codable ``AttributeDescription/transformableType``.
public enum AttributeType: String, Sendable, Hashable, CaseIterable {
    case string, boolean, integer16, integer32, integer64, double, float, decimal, date
    case binaryData, uuid, uri, transformable

    /// Core Data's spelling of ``string``.
    public static var stringAttributeType: AttributeType { .string }
    /// Core Data's spelling of ``boolean``.
    public static var booleanAttributeType: AttributeType { .boolean }
    /// Core Data's spelling of ``integer16``.
    public static var integer16AttributeType: AttributeType { .integer16 }
    /// Core Data's spelling of ``integer32``.
    public static var integer32AttributeType: AttributeType { .integer32 }
    /// Core Data's spelling of ``integer64``.
    public static var integer64AttributeType: AttributeType { .integer64 }
    /// Core Data's spelling of ``double``.
    public static var doubleAttributeType: AttributeType { .double }
    /// Core Data's spelling of ``float``.
    public static var floatAttributeType: AttributeType { .float }
    /// Core Data's spelling of ``decimal``.
    public static var decimalAttributeType: AttributeType { .decimal }
    /// Core Data's spelling of ``date``.
    public static var dateAttributeType: AttributeType { .date }
    /// Core Data's spelling of ``binaryData``.
    public static var binaryDataAttributeType: AttributeType { .binaryData }
    /// Core Data's spelling of ``uuid``.
    public static var UUIDAttributeType: AttributeType { .uuid }
    /// Core Data's spelling of ``uri``.
    public static var URIAttributeType: AttributeType { .uri }
    /// Core Data's spelling of ``transformable``.
    public static var transformableAttributeType: AttributeType { .transformable }

    /// Whether values of this type are numbers (integers, floating point, decimal, boolean).
    var isNumeric: Bool {
        switch self {
        case .boolean, .integer16, .integer32, .integer64, .double, .float, .decimal: true
        default: false
        }
    }

    /// The Swift type a caller gets back, for error messages.
    var swiftTypeName: String {
        switch self {
        case .string: "String"
        case .boolean: "Bool"
        case .integer16: "Int16"
        case .integer32: "Int32"
        case .integer64: "Int64"
        case .double: "Double"
        case .float: "Float"
        case .decimal: "Decimal"
        case .date: "Date"
        case .binaryData: "Data"
        case .uuid: "UUID"
        case .uri: "URL"
        case .transformable: "a Codable value"
        }
    }
}

/// What happens to related objects when an object is deleted, as Core Data's `NSDeleteRule`.
public enum DeleteRule: String, Sendable, Hashable, CaseIterable {
    /// Remove the deleted object from the related objects' inverse relationship.
    case nullify
    /// Delete the related objects too.
    case cascade
    /// Refuse the delete (the save throws) while the relationship holds any object.
    case deny
    /// Do nothing: the related objects keep pointing at the deleted object.
    case noAction

    /// Core Data's spelling of ``nullify``.
    public static var nullifyDeleteRule: DeleteRule { .nullify }
    /// Core Data's spelling of ``cascade``.
    public static var cascadeDeleteRule: DeleteRule { .cascade }
    /// Core Data's spelling of ``deny``.
    public static var denyDeleteRule: DeleteRule { .deny }
    /// Core Data's spelling of ``noAction``.
    public static var noActionDeleteRule: DeleteRule { .noAction }
}
