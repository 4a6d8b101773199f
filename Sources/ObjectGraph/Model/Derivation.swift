import Foundation

/// What a derived attribute's derivation expression computes, in the forms Core Data's SQL
/// store keeps (`NSDerivedAttributeDescription`'s documentation):
///
/// | form | examples |
/// |---|---|
/// | a to-one key path: a value to replicate | `name`, `author.name` |
/// | a to-one key path with a function | `canonical:(name)`, `lowercase:(author.name)`, `uppercase:(code)` |
/// | a to-many key path with an aggregate | `pages.@count`, `count:(pages)`, `pages.@sum.words`, `sum:(pages.words)` |
/// | the time of the save that changed the object | `now()` |
///
/// Anything else is refused when a store is added, naming the attribute, as Core Data refuses
/// to add a store whose model derives what it cannot keep.
package enum Derivation {
    /// The string function a replicated value goes through.
    package enum StringFunction: String, Sendable {
        /// Case- and diacritic-insensitive: NSPredicate's `[cd]` folding.
        case canonical = "canonical:"
        case lowercase = "lowercase:"
        case uppercase = "uppercase:"
    }

    /// `attribute` of the object itself (`through` is `nil`) or of its destination along the
    /// to-one `through`, passed through `function` when there is one.
    case value(through: RelationshipDescription?, attribute: AttributeDescription, function: StringFunction?)
    /// The number of objects in a to-many relationship.
    case count(RelationshipDescription)
    /// The sum of a numeric attribute over a to-many relationship's objects.
    case sum(RelationshipDescription, AttributeDescription)
    /// The time of the save that inserted or last changed the object.
    case now

    /// The derivation of `attribute` (of `entity`, which may inherit it), or why a store cannot
    /// keep it.
    package init(of attribute: AttributeDescription, in entity: EntityDescription) throws(ObjectGraphError) {
        let expression = attribute.derivationExpression ?? ""
        func refuse(_ why: String) -> ObjectGraphError {
            ObjectGraphError(
                .persistentStoreIncompatibleSchema,
                "derived attribute '\(entity.name).\(attribute.name)': '\(expression)' \(why); Core Data's SQL store keeps a to-one key path (`author.name`), canonical:, lowercase: or uppercase: of one, @count or @sum of a to-many relationship, and now()"
            )
        }
        guard let node = try? FetchPredicate(parsing: "\(expression) == nil").node, case .comparison(let comparison) = node else {
            throw refuse("is not an expression")
        }
        let derived: Derivation
        switch comparison.lhs {
        case .function(.now, _):
            derived = .now
        case .function(.count, let arguments) where arguments.count == 1:
            derived = try Self.aggregate(arguments[0], .count, of: entity, refuse: refuse)
        case .function(.sum, let arguments) where arguments.count == 1:
            derived = try Self.aggregate(arguments[0], .sum, of: entity, refuse: refuse)
        case .aggregate(let base, let function):
            derived = try Self.aggregate(base, function, of: entity, refuse: refuse)
        case .function(let function, let arguments) where arguments.count == 1:
            guard let stringFunction = StringFunction(rawValue: function.rawValue) else { throw refuse("calls \(function.rawValue), which a store does not keep") }
            let (through, source) = try Self.toOne(arguments[0], of: entity, refuse: refuse)
            guard source.attributeType == .string, attribute.attributeType == .string else {
                throw refuse("applies \(function.rawValue) to a value that is not a string, or derives one into a \(attribute.attributeType) attribute")
            }
            derived = .value(through: through, attribute: source, function: stringFunction)
        case .keyPath:
            let (through, source) = try Self.toOne(comparison.lhs, of: entity, refuse: refuse)
            derived = .value(through: through, attribute: source, function: nil)
        default:
            throw refuse("is not one of the forms a store keeps")
        }
        // The value must fit the attribute it is kept in.
        let type = attribute.attributeType
        switch derived {
        case .now where type != .date:
            throw refuse("is a time, kept in an attribute of type \(type) (it needs a date)")
        case .count where ![.integer16, .integer32, .integer64].contains(type):
            throw refuse("is a count, kept in an attribute of type \(type) (it needs an integer)")
        case .sum where !type.isNumeric:
            throw refuse("is a sum, kept in an attribute of type \(type) (it needs a number)")
        case .value(_, let source, nil) where source.attributeType != type:
            throw refuse("replicates a \(source.attributeType) value into an attribute of type \(type)")
        default:
            self = derived
        }
    }

    /// A key path of at most one to-one step and an attribute: `name`, `author.name`.
    private static func toOne(
        _ node: ExpressionNode,
        of entity: EntityDescription,
        refuse: (String) -> ObjectGraphError
    ) throws(ObjectGraphError) -> (RelationshipDescription?, AttributeDescription) {
        switch node {
        case .keyPath(.evaluatedObject, let name):
            guard let attribute = entity.attributesByName[name], !attribute.isTransient, attribute.derivationExpression == nil else {
                throw refuse("names '\(name)', which is not a stored, underived attribute of \(entity.name)")
            }
            return (nil, attribute)
        case .keyPath(.keyPath(.evaluatedObject, let step), let name):
            guard let relationship = entity.relationshipsByName[step], !relationship.isToMany, !relationship.isTransient,
                let destination = relationship.destinationEntity
            else { throw refuse("goes through '\(step)', which is not a stored to-one relationship of \(entity.name)") }
            guard let attribute = destination.attributesByName[name], !attribute.isTransient, attribute.derivationExpression == nil else {
                throw refuse("names '\(name)', which is not a stored, underived attribute of \(destination.name)")
            }
            return (relationship, attribute)
        default:
            throw refuse("is not a key path of one to-one step at most")
        }
    }

    /// `@count` of a to-many relationship, or `@sum` of a numeric attribute over one.
    private static func aggregate(
        _ base: ExpressionNode,
        _ function: AggregateFunction,
        of entity: EntityDescription,
        refuse: (String) -> ObjectGraphError
    ) throws(ObjectGraphError) -> Derivation {
        func toMany(_ name: String) throws(ObjectGraphError) -> RelationshipDescription {
            guard let relationship = entity.relationshipsByName[name], relationship.isToMany, !relationship.isTransient else {
                throw refuse("aggregates '\(name)', which is not a stored to-many relationship of \(entity.name)")
            }
            return relationship
        }
        switch (base, function) {
        case (.keyPath(.evaluatedObject, let name), .count):
            return .count(try toMany(name))
        case (.keyPath(.keyPath(.evaluatedObject, let name), let key), .sum):
            let relationship = try toMany(name)
            guard let attribute = relationship.destinationEntity?.attributesByName[key], !attribute.isTransient,
                attribute.attributeType.isNumeric
            else { throw refuse("sums '\(key)', which is not a stored numeric attribute of \(relationship.destinationEntity?.name ?? name)") }
            return .sum(relationship, attribute)
        case (_, .count), (_, .sum):
            throw refuse("aggregates '\(dotted(base))', which is not a stored to-many relationship of \(entity.name) (or, for @sum, one's attribute)")
        default:
            throw refuse("aggregates with \(function.rawValue), which a store does not keep (only @count and @sum)")
        }
    }

    /// `a.b.c` of a key path from `SELF`, for messages.
    private static func dotted(_ node: ExpressionNode) -> String {
        switch node {
        case .keyPath(.evaluatedObject, let key): key
        case .keyPath(let base, let key): "\(dotted(base)).\(key)"
        default: "\(node)"
        }
    }
}
