import Foundation
import GRDB

extension SQLCompiler {
    /// One comparison between two non-collection operands, with NSPredicate's nil semantics.
    mutating func scalarComparison(_ lhs: Operand, _ op: ComparisonOperator, _ rhs: Operand, _ options: ComparisonOptions) throws -> String {
        switch (lhs, rhs) {
        case (.object(let ref), _):
            return try objectComparison(ref.pk, ref.entity, op, rhs)
        case (_, .object(let ref)):
            guard let flipped = op.flipped else { return "0" }
            return try objectComparison(ref.pk, ref.entity, flipped, lhs)
        case (.collection, _), (_, .collection):
            throw NeedsInMemoryEvaluation(reason: "a comparison between collections")
        case (.scalar(let sql, let type), .constant(let value)):
            return try valueComparison(sql, type, op, value, options)
        case (.constant(let value), .scalar(let sql, let type)):
            if let flipped = op.flipped { return try valueComparison(sql, type, flipped, value, options) }
            let bound = bind(value.databaseValue)
            return try expressionComparison(bound, nil, op, sql, type, options)
        case (.scalar(let left, let leftType), .scalar(let right, let rightType)):
            return try expressionComparison(left, leftType, op, right, rightType, options)
        case (.constant(let left), .constant(let right)):
            let bound = bind(left.databaseValue)
            return try valueComparison(bound, nil, op, right, options)
        }
    }

    /// Compares an object reference (a primary-key expression) with IDs, `nil` or another object.
    private mutating func objectComparison(_ pk: String, _ entity: EntityDescription, _ op: ComparisonOperator, _ other: Operand) throws -> String {
        func matching(_ values: [Value]) -> [Int64] {
            values.compactMap { value in
                guard case .objectID(let id) = value, let idEntity = model.entity(named: id.entityName),
                    idEntity.rootEntity === entity.rootEntity, idEntity.isKindOf(entity: entity) || entity.isKindOf(entity: idEntity)
                else { return nil }
                return id.primaryKey
            }
        }
        switch (op, other) {
        case (.equal, .constant(.null)): return "\(pk) IS NULL"
        case (.notEqual, .constant(.null)): return "\(pk) IS NOT NULL"
        case (.equal, .constant(let value)):
            guard let key = matching([value]).first else { return "0" }
            return "\(pk) = \(bind(key.databaseValue))"
        case (.notEqual, .constant(let value)):
            guard let key = matching([value]).first else { return "1" }
            return "\(pk) IS NOT \(bind(key.databaseValue))"
        case (.in, .constant(.array(let values))):
            let keys = matching(values)
            if keys.isEmpty { return values.contains(.null) ? "\(pk) IS NULL" : "0" }
            let list = "\(pk) IN (\(keys.map { bind($0.databaseValue) }.joined(separator: ", ")))"
            return values.contains(.null) ? "(\(list) OR \(pk) IS NULL)" : list
        case (.equal, .object(let ref)): return "\(pk) IS \(ref.pk)"
        case (.notEqual, .object(let ref)): return "\(pk) IS NOT \(ref.pk)"
        case (.notEqual, _): return "1"
        default: return "0"
        }
    }

    /// `expression op constant`, binding the constant in the expression's storage form.
    private mutating func valueComparison(
        _ sql: String,
        _ type: AttributeType?,
        _ op: ComparisonOperator,
        _ value: Value,
        _ options: ComparisonOptions
    ) throws -> String {
        let folds = !options.subtracting(.normalized).isEmpty && (type == nil || type == .string || type == .uri)
        let foldOptions = options.subtracting(.normalized)
        // Decimals are text: an aggregate of a decimal column has no collation of its own.
        let left =
            folds
            ? "\(SQLiteFunctions.fold)(\(sql), \(foldOptions.rawValue))"
            : type == .decimal ? "\(sql) COLLATE \(SQLiteFunctions.decimalCollation)" : sql
        func coerced(_ value: Value) -> DatabaseValue? {
            guard let database = Self.coerce(value, to: type) else { return nil }
            if folds, case .string(let text) = database.storage { return StringComparison.fold(text, foldOptions).databaseValue }
            return database
        }
        /// A decimal that is not an integer, against an integer or floating-point column: no
        /// SQLite value stands for it exactly, so the comparison is `og_numcmp`'s, which is
        /// the evaluator's (`Value.compare`).
        func inexact(_ value: Value) -> Bool {
            guard case .decimal = value, let type, Self.binaryNumericTypes.contains(type) else { return false }
            guard case .int64 = Self.coerce(value, to: type)?.storage else { return true }
            return false
        }
        func numericComparison(_ value: Value) -> String {
            "\(SQLiteFunctions.numericCompare)(\(sql), \(bind(value.databaseValue)))"
        }
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            if value.isNull {
                switch op {
                case .equal: return "\(sql) IS NULL"
                case .notEqual: return "\(sql) IS NOT NULL"
                default: return "0"
                }
            }
            let symbol = op == .equal ? "=" : op == .notEqual ? "IS NOT" : op.rawValue
            if inexact(value) { return "\(numericComparison(value)) \(symbol) 0" }
            guard let bound = coerced(value) else { return op == .notEqual ? "1" : "0" }
            return "\(left) \(symbol) \(bind(bound))"
        case .in:
            if case .string(let text) = value {
                return stringOperator("CONTAINS", bind(text.databaseValue), sql, options)
            }
            guard case .array(let values) = value else { return "0" }
            let bound = values.filter { !$0.isNull && !inexact($0) }.compactMap(coerced)
            var alternatives = bound.isEmpty ? [] : ["\(left) IN (\(bound.map { bind($0) }.joined(separator: ", ")))"]
            alternatives += values.filter(inexact).map { "\(numericComparison($0)) = 0" }
            if values.contains(.null) { alternatives.append("\(sql) IS NULL") }
            if alternatives.isEmpty { return "0" }
            return alternatives.count == 1 ? alternatives[0] : "(\(alternatives.joined(separator: " OR ")))"
        case .between:
            guard case .array(let bounds) = value, bounds.count == 2 else {
                throw ObjectGraphError(.invalidRequest, "BETWEEN needs an array of two bounds, got \(value)")
            }
            if !bounds[0].isNull, !bounds[1].isNull, bounds.contains(where: inexact) {
                guard Self.coerce(bounds[0], to: type) != nil, Self.coerce(bounds[1], to: type) != nil else { return "0" }
                return "(\(numericComparison(bounds[0])) >= 0 AND \(numericComparison(bounds[1])) <= 0)"
            }
            guard let low = coerced(bounds[0]), let high = coerced(bounds[1]), !bounds[0].isNull, !bounds[1].isNull else { return "0" }
            return "\(left) BETWEEN \(bind(low)) AND \(bind(high))"
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard case .string(let pattern) = value else { return "0" }
            if op == .matches { _ = try StringComparison.matches("", regex: pattern, options) }
            return stringOperator(op.rawValue, sql, bind(pattern.databaseValue), options)
        }
    }

    /// `expression op expression`: both sides are SQL.
    private mutating func expressionComparison(
        _ left: String,
        _ leftType: AttributeType?,
        _ op: ComparisonOperator,
        _ right: String,
        _ rightType: AttributeType?,
        _ options: ComparisonOptions
    ) throws -> String {
        let foldOptions = options.subtracting(.normalized)
        let textual = [leftType, rightType].allSatisfy { $0 == nil || $0 == .string || $0 == .uri }
        let fold: (String) -> String = { !foldOptions.isEmpty && textual ? "\(SQLiteFunctions.fold)(\($0), \(foldOptions.rawValue))" : $0 }
        // A decimal against a decimal compares numerically; a decimal against another number
        // compares as the evaluator does.
        let decimal = leftType == .decimal || rightType == .decimal
        let numeric = [leftType, rightType].allSatisfy { $0 == nil || $0 == .decimal || Self.binaryNumericTypes.contains($0!) }
        if decimal, numeric, leftType != rightType, [.equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual].contains(op) {
            let symbol = op == .equal ? "=" : op == .notEqual ? "IS NOT" : op.rawValue
            let compared = "\(SQLiteFunctions.numericCompare)(\(left), \(right))"
            switch op {
            case .equal: return "IFNULL(\(compared) = 0, \(left) IS NULL AND \(right) IS NULL)"
            case .notEqual: return "NOT IFNULL(\(compared) = 0, \(left) IS NULL AND \(right) IS NULL)"
            default: return "\(compared) \(symbol) 0"
            }
        }
        let collated: (String) -> String = { decimal ? "\($0) COLLATE \(SQLiteFunctions.decimalCollation)" : fold($0) }
        switch op {
        case .equal: return "\(collated(left)) IS \(fold(right))"
        case .notEqual: return "\(collated(left)) IS NOT \(fold(right))"
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            return "\(collated(left)) \(op.rawValue) \(fold(right))"
        case .beginsWith, .endsWith, .contains, .like, .matches:
            return stringOperator(op.rawValue, left, right, options)
        case .in:
            return stringOperator("CONTAINS", right, left, options)
        case .between:
            throw NeedsInMemoryEvaluation(reason: "BETWEEN with key-path bounds")
        }
    }

    private func stringOperator(_ name: String, _ left: String, _ right: String, _ options: ComparisonOptions) -> String {
        "\(SQLiteFunctions.stringOperator)('\(name)', \(left), \(right), \(options.subtracting(.normalized).rawValue))"
    }

    /// The attribute types stored as SQLite integers or reals.
    static let binaryNumericTypes: Set<AttributeType> = [.boolean, .integer16, .integer32, .integer64, .double, .float]

    /// A constant in the storage form of a column of `type`; `nil` when the two do not compare.
    static func coerce(_ value: Value, to type: AttributeType?) -> DatabaseValue? {
        guard let type else { return value.databaseValue }
        switch (type, value) {
        case (_, .null): return .null
        case (.boolean, _), (.integer16, _), (.integer32, _), (.integer64, _), (.double, _), (.float, _):
            switch value {
            case .int(let int): return int.databaseValue
            case .double(let double): return double.databaseValue
            case .bool(let bool): return (bool ? 1 : 0 as Int64).databaseValue
            case .decimal(let decimal):
                if let int = Int64(exactly: NSDecimalNumber(decimal: decimal).int64Value), Decimal(int) == decimal { return int.databaseValue }
                return NSDecimalNumber(decimal: decimal).doubleValue.databaseValue
            default: return nil
            }
        case (.decimal, _):
            return value.numericDecimal.map { $0.description.databaseValue }
        case (.string, .string(let text)), (.uri, .string(let text)): return text.databaseValue
        case (.uri, .url(let url)), (.string, .url(let url)): return url.absoluteString.databaseValue
        case (.date, .date(let date)): return date.timeIntervalSinceReferenceDate.databaseValue
        case (.uuid, .uuid(let uuid)): return Data(uuid.bytes).databaseValue
        case (.binaryData, .data(let data)), (.transformable, .data(let data)): return data.databaseValue
        default: return nil
        }
    }
}
