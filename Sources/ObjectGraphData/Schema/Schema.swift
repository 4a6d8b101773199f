import Foundation
import ObjectGraph

/// The models a container stores, as SwiftData's `Schema`: the classes named and every model
/// class their relationships reach.
///
/// ```swift
/// let schema = Schema([Book.self, Author.self])
/// let container = try ModelContainer(for: schema)
/// ```
public final class Schema: @unchecked Sendable, CustomStringConvertible {
    // @unchecked Sendable: immutable after init; its ObjectGraph model is frozen once loaded.

    /// The schema's entities, one per model class, sorted by name.
    public let entities: [Entity]
    /// The schema's version (from its ``VersionedSchema``, else 1.0.0).
    public let version: Version
    /// The model classes by entity name.
    let typesByEntityName: [String: any PersistentModel.Type]
    /// The ObjectGraph model the schema maps to.
    let managedObjectModel: ManagedObjectModel

    /// A schema of `types` and the model classes their relationships reach.
    public init(_ types: [any PersistentModel.Type], version: Version = Version(1, 0, 0)) {
        let entities = SchemaBuilder.entities(reachableFrom: types)
        self.entities = entities
        self.version = version
        typesByEntityName = Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.type) })
        managedObjectModel = SchemaBuilder.managedObjectModel(entities, version: version)
    }

    /// A schema of `types`.
    public convenience init(_ types: any PersistentModel.Type..., version: Version = Version(1, 0, 0)) {
        self.init(types, version: version)
    }

    /// The schema of a ``VersionedSchema``.
    public convenience init(versionedSchema: any VersionedSchema.Type) {
        self.init(versionedSchema.models, version: versionedSchema.versionIdentifier)
    }

    /// The entity stored for `type`, if the schema has it.
    public func entity<T: PersistentModel>(for type: T.Type) -> Entity? {
        entities.first { $0.name == T.entityName }
    }

    /// Lists the entities.
    public var description: String { "Schema(\(version): \(entities.map(\.name).joined(separator: ", ")))" }

    /// A schema version, as SwiftData's `Schema.Version`: major, minor, patch.
    public struct Version: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
        /// The major version.
        public let major: Int
        /// The minor version.
        public let minor: Int
        /// The patch version.
        public let patch: Int

        /// The version `major.minor.patch`.
        public init(_ major: Int, _ minor: Int, _ patch: Int) {
            self.major = major
            self.minor = minor
            self.patch = patch
        }

        /// Orders versions numerically.
        public static func < (lhs: Version, rhs: Version) -> Bool {
            (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
        }

        /// `"1.2.0"`.
        public var description: String { "\(major).\(minor).\(patch)" }
    }

    /// A model class as the schema stores it.
    public struct Entity: CustomStringConvertible {
        /// The entity name: the class's name.
        public let name: String
        /// The model class.
        public let type: any PersistentModel.Type
        /// The persisted properties.
        public let properties: [Property]

        /// The attributes' names.
        public var attributeNames: [String] { properties.filter { !$0.isRelationship }.map(\.name) }
        /// The relationships' names.
        public var relationshipNames: [String] { properties.filter(\.isRelationship).map(\.name) }
        /// `Entity(Book: isbn, title, author)`.
        public var description: String { "Entity(\(name): \(properties.map(\.name).joined(separator: ", ")))" }
    }

    /// A persisted property: its name, key path, how it is stored and its options.
    public struct Property {
        /// The property's name, and its column's (`Z` + uppercased name in the store).
        public let name: String
        /// The property's key path on its model class.
        public let keyPath: AnyKeyPath
        /// Whether the Swift type is optional.
        public let isOptional: Bool
        /// How the value is stored.
        let kind: Kind
        /// `@Attribute` options, if any.
        public let attribute: Attribute?
        /// `@Relationship` options, if any.
        public let relationship: Relationship?

        /// Whether the property relates to other models.
        public var isRelationship: Bool {
            switch kind {
            case .toOne, .toMany: true
            case .attribute, .composite: false
            }
        }
    }

    /// How a property's Swift type is stored.
    enum Kind {
        case attribute(AttributeType, codable: (any Codable.Type)?)
        /// A `Codable` struct stored as a composite attribute, one attribute per leaf.
        case composite(CompositeLayout)
        case toOne(any PersistentModel.Type)
        case toMany(any PersistentModel.Type)
    }

    /// One persisted property of a `@Model` class, as the macro lists it in `schemaMetadata`.
    public struct PropertyMetadata {
        /// The property's name.
        public let name: String
        /// The property's key path.
        public let keypath: AnyKeyPath
        /// The property's default value, if the macro recorded one.
        public let defaultValue: Any?
        /// The property's ``Schema/Attribute`` or ``Schema/Relationship`` options, or `nil`.
        public let metadata: Any?
        /// The property's Swift type.
        let valueType: Any.Type

        /// Describes the property `name` at `keypath`.
        public init<Root, Value>(name: String, keypath: KeyPath<Root, Value>, defaultValue: Any? = nil, metadata: Any? = nil) {
            self.name = name
            self.keypath = keypath
            self.defaultValue = defaultValue
            self.metadata = metadata
            valueType = Value.self
        }
    }
}
