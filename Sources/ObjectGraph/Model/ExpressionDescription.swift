import Foundation

/// A computed column of a dictionary fetch, as Core Data's `NSExpressionDescription`: its
/// ``PropertyDescription/name`` is the result's key, its ``expression`` what is computed.
///
/// Put it in ``FetchRequest/propertiesToFetch`` of a ``FetchRequestResultType/dictionaryResultType``
/// request, with the properties it is grouped by in ``FetchRequest/propertiesToGroupBy``:
///
/// ```swift
/// let request = FetchRequest<[String: Any]>(entityName: "Photo")
/// request.resultType = .dictionaryResultType
/// request.propertiesToFetch = ["photographer", total]
/// request.propertiesToGroupBy = ["photographer"]
/// request.havingPredicate = FetchPredicate(format: "$total > 100")
/// ```
public final class ExpressionDescription: PropertyDescription {
    /// What the column computes; a fetch refuses a description without one.
    public var expression: FetchExpression? { willSet { checkMutable("expression") } }
    /// The type of the computed values, as Core Data's `expressionResultType`; `nil` (Core
    /// Data's `undefinedAttributeType`) returns them as computed: a count or an integer sum as
    /// `Int64`, an average as `Double`, a minimum or maximum as the attribute's type.
    public var expressionResultType: AttributeType? { willSet { checkMutable("expressionResultType") } }

    /// Creates an empty description; set ``PropertyDescription/name`` and ``expression``.
    public override init() { super.init() }
}
