import Foundation

extension SQLCompiler {
    /// Compiles an expression into an operand of `scope`.
    mutating func operand(_ expression: ExpressionNode, in scope: Scope, variables: [String: Operand]) throws -> Operand {
        switch expression {
        case .constant(let value):
            return .constant(value)
        case .array(let items):
            var values: [Value] = []
            for item in items {
                guard case .constant(let value) = try operand(item, in: scope, variables: variables) else {
                    throw NeedsInMemoryEvaluation(reason: "an array literal holding key paths")
                }
                values.append(value)
            }
            return .constant(.array(values))
        case .evaluatedObject:
            return .object(ObjectRef(pk: dialect.column(scope.alias, "Z_PK"), entity: scope.entity, scope: scope, via: nil))
        case .variable(let name):
            guard let bound = variables[name] else {
                throw FetchPredicateError(
                    kind: .missingVariable,
                    headline: "Missing substitution variable '$\(name)'",
                    detail: "give it a value with withSubstitutionVariables(_:)",
                    token: "$" + name
                )
            }
            return bound
        case .keyPath(let base, let key):
            return try member(key, of: try operand(base, in: scope, variables: variables), variables: variables)
        case .aggregate(let base, let function):
            let collection = try operand(base, in: scope, variables: variables)
            return try aggregate(function, of: collection)
        case .subquery(let collectionExpression, let variable, let predicate):
            guard case .collection(var collection) = try operand(collectionExpression, in: scope, variables: variables) else {
                throw ObjectGraphError(.invalidRequest, "SUBQUERY needs a to-many relationship as its collection")
            }
            var inner = variables
            inner[variable] = collection.element
            // As in the evaluator, SELF (and a bare key) inside the SUBQUERY predicate is the
            // object the whole predicate is evaluated for; members are reached through the variable.
            collection.filters.append(try compile(predicate, in: scope, variables: inner))
            return .collection(collection)
        case .arithmetic(let op, let lhs, let rhs):
            let left = try operand(lhs, in: scope, variables: variables)
            return try arithmetic(op, left, try operand(rhs, in: scope, variables: variables))
        case .index(let base, .size):
            return try operand(.aggregate(base, .count), in: scope, variables: variables)
        case .index:
            throw NeedsInMemoryEvaluation(reason: "an index expression")
        case .function(.now, _):
            return .scalar(dialect.now, .date)
        case .function(let function, _):
            throw NeedsInMemoryEvaluation(reason: "the function \(function.rawValue)")
        case .unsupported(let what):
            throw FetchPredicateError.unsupported(what)
        }
    }

    /// `operand.key`: an attribute's column, a to-one destination, or a to-many collection.
    mutating func member(_ key: String, of base: Operand, variables: [String: Operand]) throws -> Operand {
        switch base {
        case .object(let ref):
            guard let slot = ref.entity.slotByName[key] else {
                throw FetchPredicateError.unknownKey(key, entity: ref.entity.name, format: nil)
            }
            let property = ref.entity.allProperties[slot]
            if property.isTransient {
                throw ObjectGraphError(
                    .invalidRequest,
                    "cannot fetch by '\(key)': it is transient (not stored); filter in memory with evaluate(with:)"
                )
            }
            let alias = join(ref)
            let mapping = schema.mappings[ref.entity.name]!
            switch property {
            case let attribute as AttributeDescription:
                return .scalar(dialect.column(alias, mapping.columns[slot]!), attribute.attributeType)
            case let relationship as RelationshipDescription:
                let destination = relationship.destinationEntity!
                if !relationship.isToMany {
                    let column = mapping.columns[slot]!
                    let scope = ref.via == nil ? ref.scope : joinedScope(ref, alias: alias)
                    return .object(ObjectRef(pk: dialect.column(alias, column), entity: destination, scope: scope, via: (scope, column)))
                }
                return .collection(try toMany(relationship, from: alias, destination: destination))
            default:
                throw ObjectGraphError(.invalidRequest, "unknown property kind for '\(key)'")
            }
        case .collection(var collection):
            let element = try member(key, of: collection.element, variables: variables)
            guard case .collection(let inner) = element else {
                collection.element = element
                return .collection(collection)
            }
            // A to-many inside a to-many: flatten into one subquery.
            var flattened = inner
            flattened.from =
                collection.from + collection.scope.joins + ["JOIN \(inner.from[0]) ON \(inner.correlation.joined(separator: " AND "))"]
                + inner.from.dropFirst()
            flattened.correlation = collection.correlation
            flattened.filters = collection.filters + inner.filters
            return .collection(flattened)
        case .scalar, .constant:
            throw NeedsInMemoryEvaluation(reason: "a key '\(key)' applied to a value")
        }
    }

    /// The alias under which `ref`'s entity is readable, joining it in if needed.
    private mutating func join(_ ref: ObjectRef) -> String {
        guard let via = ref.via else { return ref.scope.alias }
        let key = ref.pk
        if let alias = via.from.joined[key] { return alias }
        aliasCount += 1
        let alias = "t\(aliasCount)"
        via.from.joins.append("LEFT JOIN \(tableName(of: ref.entity)) \(alias) ON \(dialect.column(alias, "Z_PK")) = \(ref.pk)")
        via.from.joined[key] = alias
        return alias
    }

    private func joinedScope(_ ref: ObjectRef, alias: String) -> Scope {
        // Joins made from a joined object still belong to the FROM of the original scope.
        ref.via?.from ?? ref.scope
    }

    private mutating func toMany(
        _ relationship: RelationshipDescription,
        from alias: String,
        destination: EntityDescription
    ) throws -> Collection {
        let scope = newScope(for: destination)
        let table = tableName(of: destination)
        let element = Operand.object(ObjectRef(pk: dialect.column(scope.alias, "Z_PK"), entity: destination, scope: scope, via: nil))
        switch schema.storage(of: relationship) {
        case .foreignKey(_, let column, _):
            return Collection(
                from: ["\(table) \(scope.alias)"],
                correlation: ["\(dialect.column(scope.alias, column)) = \(dialect.column(alias, "Z_PK"))"],
                filters: [],
                scope: scope,
                element: element
            )
        case .joinTable(let joinTable, let isOwner):
            aliasCount += 1
            let j = "j\(aliasCount)"
            let (mine, theirs, _) = joinTable.columns(isOwner: isOwner)
            return Collection(
                from: [
                    "\(dialect.quoted(joinTable.name)) \(j)",
                    "JOIN \(table) \(scope.alias) ON \(dialect.column(scope.alias, "Z_PK")) = \(dialect.column(j, theirs))",
                ],
                correlation: ["\(dialect.column(j, mine)) = \(dialect.column(alias, "Z_PK"))"],
                filters: [],
                scope: scope,
                element: element
            )
        case nil:
            throw ObjectGraphError(
                .invalidRequest,
                "cannot fetch by '\(relationship.name)': the store keeps no members for \(relationship.entity?.name ?? "?").\(relationship.name)"
            )
        }
    }

    private mutating func aggregate(_ function: AggregateFunction, of base: Operand) throws -> Operand {
        if case .constant(.array(let values)) = base, function == .count { return .constant(.int(Int64(values.count))) }
        guard case .collection(let collection) = base else {
            throw NeedsInMemoryEvaluation(reason: "\(function.rawValue) of something that is not a to-many relationship")
        }
        let from = (collection.from + collection.scope.joins).joined(separator: " ")
        let conditions = (collection.correlation + collection.filters).joined(separator: " AND ")
        if function == .count {
            return .scalar("(SELECT COUNT(*) FROM \(from) WHERE \(conditions))", .integer64)
        }
        guard case .scalar(let value, let type) = collection.element else {
            throw NeedsInMemoryEvaluation(reason: "\(function.rawValue) of objects")
        }
        // @sum and @avg count numbers only (the evaluator skips strings, dates and the like),
        // and use the evaluator's arithmetic: exact integers and decimals, no overflow error.
        let numeric = type.map { Self.binaryNumericTypes.contains($0) || $0 == .decimal } ?? true
        let resultType: AttributeType = type == .decimal ? .decimal : .double
        switch function {
        case .sum:
            guard numeric else { return .scalar("0", .integer64) }
            return .scalar("(SELECT \(dialect.sum(value, decimal: type == .decimal)) FROM \(from) WHERE \(conditions))", resultType)
        case .avg:
            guard numeric else { return .scalar("NULL", .double) }
            return .scalar("(SELECT \(dialect.average(value)) FROM \(from) WHERE \(conditions))", resultType)
        case .min: return .scalar("(SELECT MIN(\(value)) FROM \(from) WHERE \(conditions))", type)
        case .max: return .scalar("(SELECT MAX(\(value)) FROM \(from) WHERE \(conditions))", type)
        case .count: return .scalar("0", nil)
        }
    }
}
