import Foundation

/// Thrown when a predicate is valid but has no SQL form here (a SUBQUERY used as a plain
/// collection, two collections compared): the context then evaluates it in memory.
package struct NeedsInMemoryEvaluation: Error {
    /// What the dialect cannot say, for the log and a refusal.
    package let reason: String

    /// A predicate whose SQL form `reason` says is missing.
    package init(reason: String) {
        self.reason = reason
    }
}

/// Compiles fetch descriptors into parameterized SQL in a store's ``SQLDialect``: no value is
/// ever spliced into SQL text.
///
/// NSPredicate's two-valued logic is reproduced: a comparison with NULL is false, `!=` is
/// null-safe (`IS NOT`), and `NOT` treats an unknown operand as false (`NOT IFNULL(…, 0)`).
struct SQLCompiler {
    let schema: StoreSchema
    let model: ManagedObjectModel
    let dialect: any SQLDialect
    private(set) var arguments: [SQLValue] = []
    var aliasCount = 0

    init(schema: StoreSchema, model: ManagedObjectModel, dialect: any SQLDialect) {
        self.schema = schema
        self.model = model
        self.dialect = dialect
    }

    /// A FROM context: an entity's table under an alias, plus the to-one joins made from it.
    final class Scope {
        let entity: EntityDescription
        let alias: String
        var joins: [String] = []
        var joined: [String: String] = [:]
        init(entity: EntityDescription, alias: String) {
            self.entity = entity
            self.alias = alias
        }
    }

    /// An object reached by a key path: `SELF`, or a to-one relationship's destination.
    struct ObjectRef {
        let pk: String
        let entity: EntityDescription
        let scope: Scope
        /// The scope to join the destination from, when the object is not joined yet.
        let via: (from: Scope, column: String)?
    }

    /// The members of a to-many relationship (or SUBQUERY), as the FROM of a subquery.
    struct Collection {
        /// The first item is `TABLE alias`; the rest are `JOIN …` clauses.
        var from: [String]
        /// Conditions tying the first item to the outer query.
        var correlation: [String]
        /// SUBQUERY conditions.
        var filters: [String]
        let scope: Scope
        var element: Operand
    }

    indirect enum Operand {
        case scalar(String, AttributeType?)
        case constant(Value)
        case object(ObjectRef)
        case collection(Collection)
    }

    // MARK: Queries

    /// The root scope of a fetch, and its WHERE clause (entity filter and predicate).
    mutating func whereClause(for descriptor: FetchDescriptor, entity: EntityDescription, scope: Scope) throws -> String {
        var conditions: [String] = []
        let tree = model.entities.filter { $0.rootEntity === entity.rootEntity }
        let codes = descriptor.includesSubentities ? entity.fetchableEntityCodes : [entity.entityCode]
        if codes.count < tree.count {
            conditions.append("\(dialect.column(scope.alias, "Z_ENT")) IN (\(codes.map(String.init).joined(separator: ", ")))")
        }
        if let predicate = descriptor.predicate {
            conditions.append(try compile(predicate, in: scope, variables: [:]))
        }
        return conditions.isEmpty ? "" : " WHERE " + conditions.joined(separator: " AND ")
    }

    /// `ORDER BY terms`, then (with `breakingTies`) the primary key of `alias`, so equal sort
    /// keys come back in a stable order; empty when there is nothing to order by.
    static func orderClause(terms: [String], alias: String, breakingTies: Bool, dialect: any SQLDialect) -> String {
        let all = breakingTies ? terms + ["\(dialect.column(alias, "Z_PK")) ASC"] : terms
        return all.isEmpty ? "" : " ORDER BY " + all.joined(separator: ", ")
    }

    /// One `expression ASC|DESC` term per descriptor (joining the to-one relationships its
    /// key path crosses into `scope`), or, where the dialect cannot order as the evaluator
    /// does, no terms and the sort keys to order by in memory.
    ///
    /// Which selectors a dialect sorts in memory, ``SQLDialect/sortsInMemory(_:)`` says: the
    /// store reads the keys and orders with ``FetchSortDescriptor``'s comparison itself.
    mutating func orderTerms(for descriptors: [FetchSortDescriptor], scope: Scope) throws -> (terms: [String], inMemory: FetchPlan.InMemorySort?) {
        var terms: [String] = []
        var keys: [String] = []
        var types: [AttributeType?] = []
        var inMemory = false
        for descriptor in descriptors {
            guard let key = descriptor.key else {
                let pk = dialect.column(scope.alias, "Z_PK")
                terms.append("\(pk) \(descriptor.ascending ? "ASC" : "DESC")")
                keys.append(pk)
                types.append(.integer64)
                continue
            }
            var operand: Operand = .object(ObjectRef(pk: dialect.column(scope.alias, "Z_PK"), entity: scope.entity, scope: scope, via: nil))
            for component in key.split(separator: ".") { operand = try member(String(component), of: operand, variables: [:]) }
            var expression: String
            switch operand {
            case .scalar(let sql, let type):
                let textual = type == .string || type == .uri
                expression = textual ? dialect.sortKey(sql, descriptor.selector) : sql
                if textual, dialect.sortsInMemory(descriptor.selector) { inMemory = true }
                keys.append(sql)
                types.append(type)
            case .object(let ref):
                expression = ref.pk
                keys.append(ref.pk)
                types.append(.integer64)
            default: throw ObjectGraphError(.invalidRequest, "cannot sort by '\(key)': it is not a value reached through to-one relationships")
            }
            terms.append("\(expression) \(dialect.direction(ascending: descriptor.ascending))")
        }
        guard inMemory else { return (terms, nil) }
        return ([], FetchPlan.InMemorySort(descriptors: descriptors, keys: keys, types: types))
    }

    mutating func newScope(for entity: EntityDescription) -> Scope {
        aliasCount += 1
        return Scope(entity: entity, alias: "t\(aliasCount)")
    }

    mutating func bind(_ value: SQLValue) -> String {
        arguments.append(value)
        return dialect.placeholder(arguments.count)
    }

    func tableName(of entity: EntityDescription) -> String {
        dialect.quoted(schema.mappings[entity.name]!.table)
    }

    // MARK: Predicates

    mutating func compile(_ node: PredicateNode, in scope: Scope, variables: [String: Operand]) throws -> String {
        switch node {
        case .constant(let value): return value ? dialect.trueLiteral : dialect.falseLiteral
        case .not(let inner): return dialect.not(try compile(inner, in: scope, variables: variables))
        case .and(let parts):
            if parts.isEmpty { return dialect.trueLiteral }
            return "(" + (try parts.map { try compile($0, in: scope, variables: variables) }).joined(separator: " AND ") + ")"
        case .or(let parts):
            if parts.isEmpty { return dialect.falseLiteral }
            return "(" + (try parts.map { try compile($0, in: scope, variables: variables) }).joined(separator: " OR ") + ")"
        case .comparison(let comparison):
            return try compile(comparison, in: scope, variables: variables)
        case .unsupported(let construct):
            throw FetchPredicateError.unsupported(construct)
        }
    }

    private mutating func compile(_ comparison: ComparisonNode, in scope: Scope, variables: [String: Operand]) throws -> String {
        var lhs = try operand(comparison.lhs, in: scope, variables: variables)
        var rhs = try operand(comparison.rhs, in: scope, variables: variables)
        var op = comparison.op
        let options = comparison.options
        // `%@ IN tags` and `'x' IN name` read as the collection (or string) containing the value.
        if op == .in, case .collection = rhs, comparison.modifier == .direct {
            swap(&lhs, &rhs)
            op = .contains
        }
        if case .collection(let collection) = lhs {
            if op == .contains && comparison.modifier == .direct {
                return try exists(
                    collection,
                    condition: { compiler, element in
                        try compiler.scalarComparison(element, .equal, rhs, options)
                    }
                )
            }
            switch comparison.modifier {
            case .direct, .any:
                return try exists(collection) { compiler, element in try compiler.scalarComparison(element, op, rhs, options) }
            case .none:
                return "NOT " + (try exists(collection) { compiler, element in try compiler.scalarComparison(element, op, rhs, options) })
            case .all:
                return "NOT "
                    + (try exists(collection) { compiler, element in
                        compiler.dialect.not(try compiler.scalarComparison(element, op, rhs, options))
                    })
            }
        }
        if case .collection(let collection) = rhs, op == .in {
            return try exists(collection) { compiler, element in try compiler.scalarComparison(lhs, .equal, element, options) }
        }
        if case .constant = lhs, !(rhs.isConstant) {
            if let flipped = op.flipped {
                swap(&lhs, &rhs)
                op = flipped
            } else if op == .in, case .constant(.string) = lhs {
                // 'abc' IN title: the string title contains 'abc'.
                swap(&lhs, &rhs)
                op = .contains
            }
        }
        return try scalarComparison(lhs, op, rhs, options)
    }

    /// `EXISTS (SELECT 1 FROM members WHERE correlation AND condition(element))`.
    private mutating func exists(_ collection: Collection, condition: (inout SQLCompiler, Operand) throws -> String) throws -> String {
        let test = try condition(&self, collection.element)
        let from = (collection.from + collection.scope.joins).joined(separator: " ")
        return "EXISTS (SELECT 1 FROM \(from) WHERE \((collection.correlation + collection.filters + [test]).joined(separator: " AND ")))"
    }
}

extension ComparisonOperator {
    /// The operator with its sides swapped (`5 < x` is `x > 5`), where one exists.
    package var flipped: ComparisonOperator? {
        switch self {
        case .lessThan: .greaterThan
        case .lessThanOrEqual: .greaterThanOrEqual
        case .greaterThan: .lessThan
        case .greaterThanOrEqual: .lessThanOrEqual
        case .equal: .equal
        case .notEqual: .notEqual
        default: nil
        }
    }
}

extension SQLCompiler.Operand {
    var isConstant: Bool {
        if case .constant = self { return true }
        return false
    }
}
