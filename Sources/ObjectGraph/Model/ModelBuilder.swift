import Foundation

/// Builds a model's entities in a block; see ``ManagedObjectModel/init(_:)``. Entities may
/// come from `for` loops and `if` statements as well as one by one.
@resultBuilder
public enum ModelBuilder {
    /// Part of the result builder; not called directly.
    public static func buildBlock(_ components: [EntityDescription]...) -> [EntityDescription] { components.flatMap { $0 } }
    /// Part of the result builder; not called directly.
    public static func buildArray(_ groups: [[EntityDescription]]) -> [EntityDescription] { groups.flatMap { $0 } }
    /// Part of the result builder; not called directly.
    public static func buildOptional(_ component: [EntityDescription]?) -> [EntityDescription] { component ?? [] }
    /// Part of the result builder; not called directly.
    public static func buildEither(first component: [EntityDescription]) -> [EntityDescription] { component }
    /// Part of the result builder; not called directly.
    public static func buildEither(second component: [EntityDescription]) -> [EntityDescription] { component }
    /// Part of the result builder; not called directly.
    public static func buildExpression(_ entity: EntityDescription) -> [EntityDescription] { [entity] }
}

/// Builds an entity's properties in a block; see ``EntityDescription/init(_:class:parent:isAbstract:properties:)``.
/// Properties may come from `for` loops and `if` statements as well as one by one.
@resultBuilder
public enum EntityBuilder {
    /// Part of the result builder; not called directly.
    public static func buildBlock(_ components: [PropertyDescription]...) -> [PropertyDescription] { components.flatMap { $0 } }
    /// Part of the result builder; not called directly.
    public static func buildArray(_ groups: [[PropertyDescription]]) -> [PropertyDescription] { groups.flatMap { $0 } }
    /// Part of the result builder; not called directly.
    public static func buildOptional(_ component: [PropertyDescription]?) -> [PropertyDescription] { component ?? [] }
    /// Part of the result builder; not called directly.
    public static func buildEither(first component: [PropertyDescription]) -> [PropertyDescription] { component }
    /// Part of the result builder; not called directly.
    public static func buildEither(second component: [PropertyDescription]) -> [PropertyDescription] { component }
    /// Part of the result builder; not called directly.
    public static func buildExpression(_ property: PropertyDescription) -> [PropertyDescription] { [property] }
}

extension ManagedObjectModel {
    /// Builds a model from entities listed in a block; relationships name their destination
    /// and inverse, resolved when the model is loaded.
    ///
    /// ```swift
    /// let model = ManagedObjectModel {
    ///     EntityDescription("Photo", class: Photo.self) {
    ///         AttributeDescription("title", .string)
    ///         AttributeDescription("views", .integer64, optional: false, defaultValue: 0)
    ///         RelationshipDescription("tags", to: "Tag", inverse: "photos", toMany: true)
    ///     }
    ///     EntityDescription("Tag") {
    ///         AttributeDescription("name", .string, optional: false)
    ///         RelationshipDescription("photos", to: "Photo", inverse: "tags", toMany: true)
    ///     }
    ///     .unique("name")
    /// }
    /// ```
    public convenience init(@ModelBuilder _ entities: () -> [EntityDescription]) {
        self.init()
        self.entities = entities()
    }
}

extension EntityDescription {
    /// Creates an entity named `name` bound to `class`, inheriting from the entity named
    /// `parent`, with the properties listed in the block.
    public convenience init(
        _ name: String,
        class managedClass: ManagedObject.Type = ManagedObject.self,
        parent: String? = nil,
        isAbstract: Bool = false,
        @EntityBuilder properties: () -> [PropertyDescription] = { [] }
    ) {
        self.init()
        self.name = name
        managedObjectClass = managedClass
        superentityName = parent
        self.isAbstract = isAbstract
        self.properties = properties()
    }

    /// Adds a uniqueness constraint over `keys` (values unique together).
    @discardableResult
    public func unique(_ keys: String...) -> EntityDescription {
        uniquenessConstraints.append(keys)
        return self
    }

    /// Adds an index named `name` over `keys`, ascending.
    @discardableResult
    public func index(_ name: String, _ keys: String...) -> EntityDescription {
        indexes.append(FetchIndexDescription(name: name, elements: keys.map { FetchIndexElementDescription(propertyName: $0) }))
        return self
    }
}

extension AttributeDescription {
    /// Creates an attribute: `optional` as Core Data defaults (`true`), with an optional default
    /// value, transient (in memory only) or indexed; a transformable attribute names its
    /// Codable `transformableType` or a `valueTransformerName` (see ``AttributeValueTransformer``).
    public convenience init(
        _ name: String,
        _ type: AttributeType,
        optional: Bool = true,
        defaultValue: Any? = nil,
        transient: Bool = false,
        indexed: Bool = false,
        transformableType: (any Codable.Type)? = nil,
        valueTransformerName: String? = nil
    ) {
        self.init()
        self.name = name
        attributeType = type
        isOptional = optional
        self.defaultValue = defaultValue
        isTransient = transient
        isIndexed = indexed
        self.transformableType = transformableType
        self.valueTransformerName = valueTransformerName
    }

    /// Requires values within `range` (numbers), checked at save.
    public func range(_ range: ClosedRange<Double>) -> AttributeDescription {
        minValue = range.lowerBound
        maxValue = range.upperBound
        return self
    }

    /// Requires a string (in characters) or binary value (in bytes) of a length within `range`.
    public func length(_ range: ClosedRange<Int>) -> AttributeDescription {
        minLength = range.lowerBound
        maxLength = range.upperBound
        return self
    }

    /// Requires string values to match `regularExpression` as a whole.
    public func pattern(_ regularExpression: String) -> AttributeDescription {
        self.regularExpression = regularExpression
        return self
    }
}

extension RelationshipDescription {
    /// Creates a relationship to the entity named `destination` whose inverse is the
    /// relationship named `inverse` there; `toMany` sets `maxCount` 0 (unbounded).
    public convenience init(
        _ name: String,
        to destination: String,
        inverse: String?,
        toMany: Bool = false,
        ordered: Bool = false,
        optional: Bool = true,
        deleteRule: DeleteRule = .nullify,
        minCount: Int = 0,
        maxCount: Int? = nil
    ) {
        self.init()
        self.name = name
        destinationEntityName = destination
        inverseName = inverse
        self.maxCount = maxCount ?? (toMany ? 0 : 1)
        self.minCount = minCount
        isOrdered = ordered
        isOptional = optional
        self.deleteRule = deleteRule
    }
}
