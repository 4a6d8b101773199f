import Foundation

extension SQLCompiler {
    /// One comparison between two non-collection operands, with NSPredicate's nil semantics.
    mutating func scalarComparison(_ lhs: Operand, _ op: ComparisonOperator, _ rhs: Operand, _ options: ComparisonOptions) throws -> String {
        switch (lhs, rhs) {
        case (.object(let ref), _):
            return try objectComparison(ref.pk, ref.entity, op, rhs)
        case (_, .object(let ref)):
            guard let flipped = op.flipped else { return dialect.falseLiteral }
            return try objectComparison(ref.pk, ref.entity, flipped, lhs)
        case (.collection, _), (_, .collection):
            throw NeedsInMemoryEvaluation(reason: "a comparison between collections")
        case (.scalar(let sql, let type), .constant(let value)):
            return try valueComparison(sql, type, op, value, options)
        case (.constant(let value), .scalar(let sql, let type)):
            if let flipped = op.flipped { return try valueComparison(sql, type, flipped, value, options) }
            let bound = bind(value.sqlValue)
            return try expressionComparison(bound, constantType(value), op, sql, type, options)
        case (.scalar(let left, let leftType), .scalar(let right, let rightType)):
            return try expressionComparison(left, leftType, op, right, rightType, options)
        case (.constant(let left), .constant(let right)):
            let bound = bind(left.sqlValue)
            return try valueComparison(bound, constantType(left), op, right, options)
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
            guard let key = matching([value]).first else { return dialect.falseLiteral }
            return "\(pk) = \(bind(.integer(key)))"
        case (.notEqual, .constant(let value)):
            guard let key = matching([value]).first else { return dialect.trueLiteral }
            return "\(pk) \(dialect.isNotOperator) \(bind(.integer(key)))"
        case (.in, .constant(.array(let values))):
            let keys = matching(values)
            if keys.isEmpty { return values.contains(.null) ? "\(pk) IS NULL" : dialect.falseLiteral }
            let list = "\(pk) IN (\(keys.map { bind(.integer($0)) }.joined(separator: ", ")))"
            return values.contains(.null) ? "(\(list) OR \(pk) IS NULL)" : list
        case (.equal, .object(let ref)): return "\(pk) \(dialect.isOperator) \(ref.pk)"
        case (.notEqual, .object(let ref)): return "\(pk) \(dialect.isNotOperator) \(ref.pk)"
        case (.notEqual, _): return dialect.trueLiteral
        default: return dialect.falseLiteral
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
        if folds { try requireFolding(foldOptions) }
        // Decimals are text: an aggregate of a decimal column has no collation of its own.
        let left = folds ? fold(sql, foldOptions) : type == .decimal ? dialect.decimalOrdered(sql) : sql
        /// `left` for an ordering: by Unicode scalar for text.
        let ordered = type == .string || type == .uri ? dialect.textOrdered(left) : left
        func coerced(_ value: Value) -> SQLValue? {
            guard let stored = Self.coerce(value, to: type) else { return nil }
            // A dialect folds constants here, once, or in SQL as the column.
            if folds, dialect.foldsConstantsBeforeBinding, case .text(let text) = stored {
                return .text(StringComparison.fold(text, foldOptions))
            }
            return stored
        }
        /// The placeholder of a coerced constant, folded as `left` is.
        func placeholder(_ stored: SQLValue) -> String {
            let bound = bind(stored)
            guard folds, !dialect.foldsConstantsBeforeBinding, case .text = stored else { return bound }
            return fold(bound, foldOptions)
        }
        /// A decimal that is not an integer, against an integer or floating-point column: no
        /// SQLite value stands for it exactly, so the comparison is `og_numcmp`'s, which is
        /// the evaluator's (`Value.compare`).
        func inexact(_ value: Value) -> Bool {
            guard case .decimal = value, let type, Self.binaryNumericTypes.contains(type) else { return false }
            guard case .integer = Self.coerce(value, to: type) else { return true }
            return false
        }
        func numericComparison(_ op: ComparisonOperator, _ value: Value) -> String {
            // Where the database converts a double otherwise than the evaluator does, the
            // dialect compares with the doubles around the constant instead.
            if type == .double || type == .float, case .decimal(let decimal) = value {
                let dialect = self.dialect
                if let sql = dialect.decimalAgainstDouble(sql, op, decimal, bind: { bind(.real($0)) }) { return sql }
            }
            return dialect.numericCompare(sql, dialect.symbol(op), bind(value.sqlValue))
        }
        switch op {
        case .equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            if value.isNull {
                switch op {
                case .equal: return "\(sql) IS NULL"
                case .notEqual: return "\(sql) IS NOT NULL"
                default: return dialect.falseLiteral
                }
            }
            if let exact = dialect.exactConstant(value, against: type) { return exactComparison(sql, op, exact) }
            let symbol = dialect.symbol(op)
            if inexact(value) { return numericComparison(op, value) }
            guard let bound = coerced(value) else { return op == .notEqual ? dialect.trueLiteral : dialect.falseLiteral }
            return "\(op == .equal || op == .notEqual ? left : ordered) \(symbol) \(placeholder(bound))"
        case .in:
            if case .string(let text) = value {
                return try stringOperator(.contains, .constant(text), .expression(sql, type), options)
            }
            guard case .array(let values) = value else { return dialect.falseLiteral }
            var bound: [SQLValue] = []
            for element in values where !element.isNull && !inexact(element) {
                switch dialect.exactConstant(element, against: type) {
                case .exact(let stored)?: bound.append(stored)
                case nil: if let stored = coerced(element) { bound.append(stored) }
                default: break  // equal to no value of the column
                }
            }
            var alternatives = bound.isEmpty ? [] : ["\(left) IN (\(bound.map { placeholder($0) }.joined(separator: ", ")))"]
            alternatives += values.filter(inexact).map { numericComparison(.equal, $0) }
            if values.contains(.null) { alternatives.append("\(sql) IS NULL") }
            if alternatives.isEmpty { return dialect.falseLiteral }
            return alternatives.count == 1 ? alternatives[0] : "(\(alternatives.joined(separator: " OR ")))"
        case .between:
            guard case .array(let bounds) = value, bounds.count == 2 else {
                throw ObjectGraphError(.invalidRequest, "BETWEEN needs an array of two bounds, got \(value)")
            }
            if !bounds[0].isNull, !bounds[1].isNull, bounds.contains(where: inexact) {
                guard Self.coerce(bounds[0], to: type) != nil, Self.coerce(bounds[1], to: type) != nil else { return dialect.falseLiteral }
                return "(\(numericComparison(.greaterThanOrEqual, bounds[0])) AND \(numericComparison(.lessThanOrEqual, bounds[1])))"
            }
            guard let low = coerced(bounds[0]), let high = coerced(bounds[1]), !bounds[0].isNull, !bounds[1].isNull else {
                return dialect.falseLiteral
            }
            if bounds.contains(where: { dialect.exactConstant($0, against: type) != nil }) {
                func bound(_ op: ComparisonOperator, _ value: Value, _ stored: SQLValue) -> String {
                    guard let exact = dialect.exactConstant(value, against: type) else { return "\(sql) \(op.rawValue) \(bind(stored))" }
                    return exactComparison(sql, op, exact)
                }
                let lower = bound(.greaterThanOrEqual, bounds[0], low)
                return "(\(lower) AND \(bound(.lessThanOrEqual, bounds[1], high)))"
            }
            return "\(ordered) BETWEEN \(placeholder(low)) AND \(placeholder(high))"
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard case .string(let pattern) = value else { return dialect.falseLiteral }
            if op == .matches { _ = try StringComparison.matches("", regex: pattern, options) }
            return try stringOperator(op, .expression(sql, type), .constant(pattern), options)
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
        // (Types spelled out: inferring these literals and closures took the type checker
        // seconds, a third of the module's function bodies.)
        let types: [AttributeType?] = [leftType, rightType]
        let textual = types.allSatisfy { (type: AttributeType?) -> Bool in type == nil || type == .string || type == .uri }
        let folds = !foldOptions.isEmpty && textual
        let stringOperators: [ComparisonOperator] = [.beginsWith, .endsWith, .contains, .like, .matches, .in]
        if folds, !stringOperators.contains(op) { try requireFolding(foldOptions) }
        let writer = self  // folds and collations bind nothing: a copy writes them
        let fold: (String) -> String = { folds ? writer.fold($0, foldOptions) : $0 }
        // A decimal against a decimal compares numerically; a decimal against another number
        // compares as the evaluator does.
        let decimal = leftType == .decimal || rightType == .decimal
        let numeric = types.allSatisfy { (type: AttributeType?) -> Bool in
            guard let type else { return true }
            return type == .decimal || Self.binaryNumericTypes.contains(type)
        }
        let orderings: [ComparisonOperator] = [.equal, .notEqual, .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual]
        if decimal, numeric, leftType != rightType, orderings.contains(op) {
            return dialect.mixedDecimalComparison(left, op, right)
        }
        if orderings.contains(op), let exact = dialect.exactMixedComparison(left, leftType, op, right, rightType) { return exact }
        if dialect.comparesTypedValuesOnly, let leftType, let rightType, Self.storageClass(leftType) != Self.storageClass(rightType) {
            // The database refuses to compare text with a number: the evaluator's answer is
            // that values of different kinds are never equal, and never ordered.
            switch op {
            case .equal: return "(\(left) IS NULL AND \(right) IS NULL)"
            case .notEqual: return "NOT (\(left) IS NULL AND \(right) IS NULL)"
            case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual: return dialect.falseLiteral
            default: break
            }
        }
        let collated: (String) -> String = { decimal ? writer.dialect.decimalOrdered($0) : fold($0) }
        let text = types.contains { (type: AttributeType?) -> Bool in type == .string || type == .uri }
        switch op {
        case .equal: return "\(collated(left)) \(dialect.isOperator) \(fold(right))"
        case .notEqual: return "\(collated(left)) \(dialect.isNotOperator) \(fold(right))"
        case .lessThan, .lessThanOrEqual, .greaterThan, .greaterThanOrEqual:
            let ordered = text && !decimal ? dialect.textOrdered(collated(left)) : collated(left)
            return "\(ordered) \(op.rawValue) \(fold(right))"
        case .beginsWith, .endsWith, .contains, .like, .matches:
            return try stringOperator(op, .expression(left, leftType), .expression(right, rightType), options)
        case .in:
            return try stringOperator(.contains, .expression(right, rightType), .expression(left, leftType), options)
        case .between:
            throw NeedsInMemoryEvaluation(reason: "BETWEEN with key-path bounds")
        }
    }

    /// The type of a constant's column, for a comparison where it stands in for one, in a
    /// dialect that compares typed values only (`nil` in one whose comparisons take any
    /// storage class).
    private func constantType(_ value: Value) -> AttributeType? {
        guard dialect.comparesTypedValuesOnly else { return nil }
        switch value {
        case .string: return .string
        case .bool: return .boolean
        case .int: return .integer64
        case .double: return .double
        case .decimal: return .decimal
        case .date: return .date
        case .data: return .binaryData
        case .uuid: return .uuid
        case .url: return .uri
        case .null, .objectID, .array: return nil
        }
    }

    /// Which attribute types' values compare with each other: text, numbers, dates, UUIDs,
    /// bytes.
    static func storageClass(_ type: AttributeType) -> Int {
        switch type {
        case .string, .uri: 0
        case .boolean, .integer16, .integer32, .integer64, .double, .float, .decimal: 1
        case .date: 2
        case .uuid: 3
        case .binaryData, .transformable: 4
        }
    }

    /// The attribute types stored as SQLite integers or reals.
    static let binaryNumericTypes: Set<AttributeType> = [.boolean, .integer16, .integer32, .integer64, .double, .float]

    /// A constant in the storage form of a column of `type`; `nil` when the two do not compare.
    static func coerce(_ value: Value, to type: AttributeType?) -> SQLValue? {
        guard let type else { return value.sqlValue }
        switch (type, value) {
        case (_, .null): return .null
        case (.boolean, _), (.integer16, _), (.integer32, _), (.integer64, _), (.double, _), (.float, _):
            switch value {
            case .int(let int): return .integer(int)
            case .double(let double): return .real(double)
            case .bool(let bool): return .integer(bool ? 1 : 0)
            case .decimal(let decimal):
                if let int = Int64(exactly: NSDecimalNumber(decimal: decimal).int64Value), Decimal(int) == decimal { return .integer(int) }
                return .real(NSDecimalNumber(decimal: decimal).doubleValue)
            default: return nil
            }
        case (.decimal, _):
            return value.numericDecimal.map { .decimal($0) }
        case (.string, .string(let text)), (.uri, .string(let text)): return .text(text)
        case (.uri, .url(let url)), (.string, .url(let url)): return .text(url.absoluteString)
        case (.date, .date(let date)): return .real(date.timeIntervalSinceReferenceDate)
        case (.uuid, .uuid(let uuid)): return .blob(Data(uuid.bytes))
        case (.binaryData, .data(let data)), (.transformable, .data(let data)): return .blob(data)
        default: return nil
        }
    }

    /// `sql op constant` for a constant the dialect rewrote (``SQLDialect/exactConstant(_:against:)``),
    /// with NSPredicate's nil semantics (`!=` holds for NULL, orderings do not).
    mutating func exactComparison(_ sql: String, _ op: ComparisonOperator, _ constant: SQLExactConstant) -> String {
        switch constant {
        case .exact(let value):
            return "\(sql) \(dialect.symbol(op)) \(bind(value))"
        case .unordered:
            return op == .notEqual ? dialect.trueLiteral : dialect.falseLiteral
        case .between(let below, let above):
            switch op {
            case .equal: return dialect.falseLiteral
            case .notEqual: return dialect.trueLiteral
            case .lessThan, .lessThanOrEqual:
                guard let below else { return dialect.falseLiteral }
                return "\(sql) <= \(bind(below))"
            case .greaterThan, .greaterThanOrEqual:
                guard let above else { return dialect.falseLiteral }
                return "\(sql) >= \(bind(above))"
            default:
                return dialect.falseLiteral
            }
        }
    }
}
