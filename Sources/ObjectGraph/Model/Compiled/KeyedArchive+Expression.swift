import Foundation

extension KeyedArchive {
    /// The `predicateFormat` of the archived `NSExpression` `value` — what Core Data hashes for
    /// a derived attribute (`count:(pages)`, `lowercase:(name)`, `author.name`) — or `nil` for
    /// a form not rendered here (subqueries, aggregates, blocks, custom functions).
    ///
    /// Rendered: key paths (`NSKeyPathExpression` on `SELF`, `NSKeyPathSpecifierExpression`),
    /// `SELF`, variables, string and number constants, and the built-in functions
    /// (`NSFunctionExpression` on `_NSPredicateUtilities`) as `name:(argument, …)`.
    func expressionFormat(_ value: Value?) -> String? {
        let object = self.fields(value)
        switch className(value) {
        case "NSSelfExpression":
            return "SELF"
        case "NSKeyPathSpecifierExpression":
            return string(object["NSKeyPath"])
        case "NSVariableExpression":
            return string(object["NSVariable"]).map { "$" + $0 }
        case "NSKeyPathExpression":
            let path = array(object["NSArguments"]).map { expressionFormat($0) }
            guard path.count == 1, let key = path[0] else { return nil }
            if className(object["NSOperand"]) == "NSSelfExpression" { return key }
            return expressionFormat(object["NSOperand"]).map { "\($0).\(key)" }
        case "NSConstantValueExpression":
            switch resolve(object["NSConstantValue"]) {
            case .string(let text): return "\"\(text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\""))\""
            case .int(let int): return String(int)
            case .real(let real): return String(real)
            case .null: return object["NSConstantValue"] == nil ? nil : "nil"
            default: return nil
            }
        case "NSFunctionExpression":
            let operand = self.fields(object["NSOperand"])
            guard string(operand["NSConstantValueClassName"]) == "_NSPredicateUtilities", let selector = string(object["NSSelectorName"])
            else { return nil }
            let arguments = array(object["NSArguments"]).map { expressionFormat($0) }
            guard !arguments.contains(where: { $0 == nil }) else { return nil }
            return "\(selector)(\(arguments.compactMap { $0 }.joined(separator: ", ")))"
        default:
            return nil
        }
    }
}
