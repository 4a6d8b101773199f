import Foundation

/// An expression a dictionary fetch computes, as Core Data's `NSExpression` in an
/// ``ExpressionDescription``: a key path, or an aggregate function of one.
///
/// ```swift
/// let total = ExpressionDescription()
/// total.name = "total"
/// total.expression = FetchExpression(forFunction: "sum:", arguments: [FetchExpression(forKeyPath: "views")])
/// total.expressionResultType = .integer64AttributeType
/// ```
///
/// The functions a fetch computes are Core Data's SQL aggregates: `sum:`, `count:`, `min:`,
/// `max:` and `average:`, each of one key path of the fetched entity.
public final class FetchExpression: Sendable, CustomStringConvertible {
    /// What kind of expression this is, as Core Data's `NSExpression.ExpressionType`.
    public enum ExpressionType: Sendable, Hashable {
        /// A key path of the fetched object.
        case keyPath
        /// A function of its arguments.
        case function
    }

    /// The kind of this expression.
    public let expressionType: ExpressionType
    /// The key path of a ``ExpressionType/keyPath`` expression.
    public let keyPath: String?
    /// The name of a ``ExpressionType/function`` expression, with its colon (`"sum:"`).
    public let function: String?
    /// The arguments of a ``ExpressionType/function`` expression.
    public let arguments: [FetchExpression]?

    /// An expression for the value at `keyPath` of the fetched object.
    public init(forKeyPath keyPath: String) {
        expressionType = .keyPath
        self.keyPath = keyPath
        function = nil
        arguments = nil
    }

    /// An expression for `name` (`"sum:"`, `"count:"`, `"min:"`, `"max:"`, `"average:"`) of
    /// `arguments`.
    public init(forFunction name: String, arguments: [FetchExpression]) {
        expressionType = .function
        keyPath = nil
        function = name
        self.arguments = arguments
    }

    /// The expression as NSExpression prints it: `views`, `sum:(views)`.
    public var description: String {
        switch expressionType {
        case .keyPath: return keyPath ?? ""
        case .function: return "\(function ?? "")(\((arguments ?? []).map(\.description).joined(separator: ", ")))"
        }
    }
}
