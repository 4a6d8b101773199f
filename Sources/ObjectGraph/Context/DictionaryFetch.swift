import Foundation

/// What a dictionary fetch returns, planned from its request: the columns (properties,
/// renamed key paths, aggregates), the stored properties it reads, and how rows group.
///
/// Invariants it keeps:
/// - **Every column of a grouped or aggregating fetch is a grouped property or an aggregate**,
///   as Core Data requires of its `GROUP BY` (checked when planned, so a bad request throws
///   before it reads anything).
/// - **A fetch that aggregates returns one result per group**, and exactly one (its counts 0,
///   its sums 0, the rest `nil`) when it aggregates without grouping and nothing matches.
struct DictionaryFetch {
    /// One key of the results.
    enum Column {
        /// A stored attribute or to-one relationship, under `key` (its name, or an
        /// expression description's name for a key-path expression).
        case property(key: String, property: String)
        /// An aggregate of a stored property (`nil`: of the matching objects themselves).
        case aggregate(key: String, function: AggregateFunction, property: String?, type: AttributeType?)

        var key: String {
            switch self {
            case .property(let key, _), .aggregate(let key, _, _, _): key
            }
        }
    }

    let columns: [Column]
    /// The properties whose values group the rows.
    let groupedBy: [String]
    /// The stored properties to read of each matching object.
    let reads: [String]

    /// Whether the fetch groups or aggregates (one result per group, not per object).
    var aggregates: Bool {
        !groupedBy.isEmpty || columns.contains { if case .aggregate = $0 { true } else { false } }
    }

    /// Plans the dictionary fetch of `request`, whose entity is `entity`.
    ///
    /// - Throws: ``ObjectGraphError/Code/invalidRequest`` or ``ObjectGraphError/Code/unknownKey``
    ///   naming the column at fault.
    init<T>(_ request: FetchRequest<T>, entity: EntityDescription) throws {
        func storedProperty(_ name: String, for use: String) throws -> String {
            guard let slot = entity.slotByName[name] else {
                throw ObjectGraphError(.unknownKey, "\(entity.name) has no property '\(name)' to \(use)")
            }
            let property = entity.allProperties[slot]
            if property.isTransient || (property as? RelationshipDescription)?.isToMany == true {
                throw ObjectGraphError(
                    .invalidRequest,
                    "cannot \(use) '\(name)' in a dictionary fetch: only stored attributes and to-one relationships"
                )
            }
            return name
        }
        let requested: [Any] =
            request.propertiesToFetch
            ?? entity.allProperties.filter { !$0.isTransient && !(($0 as? RelationshipDescription)?.isToMany ?? false) }.map { $0.name as Any }
        columns = try requested.map { item -> Column in
            switch item {
            case let string as String:
                return .property(key: string, property: try storedProperty(string, for: "fetch"))
            case let expression as ExpressionDescription:
                return try Self.column(expression, entity: entity, storedProperty: storedProperty)
            case let property as PropertyDescription:
                return .property(key: property.name, property: try storedProperty(property.name, for: "fetch"))
            default:
                throw ObjectGraphError(
                    .invalidRequest,
                    "propertiesToFetch holds \(type(of: item)); use property names, property descriptions or expression descriptions"
                )
            }
        }
        groupedBy = try (request.propertiesToGroupBy ?? []).map { item -> String in
            switch item {
            case let string as String: return try storedProperty(string, for: "group by")
            case let expression as ExpressionDescription:
                guard let keyPath = expression.expression?.keyPath else {
                    throw ObjectGraphError(.invalidRequest, "propertiesToGroupBy can hold an expression description of a key path only, not '\(expression.name)'")
                }
                return try storedProperty(keyPath, for: "group by")
            case let property as PropertyDescription: return try storedProperty(property.name, for: "group by")
            default:
                throw ObjectGraphError(.invalidRequest, "propertiesToGroupBy holds \(type(of: item)); use property names or descriptions")
            }
        }
        var reads: [String] = []
        for name in groupedBy where !reads.contains(name) { reads.append(name) }
        for column in columns {
            switch column {
            case .property(_, let property), .aggregate(_, _, let property?, _):
                if !reads.contains(property) { reads.append(property) }
            case .aggregate(_, _, nil, _):
                continue
            }
        }
        self.reads = reads
        if aggregates {
            for case .property(let key, let property) in columns where !groupedBy.contains(property) {
                throw ObjectGraphError(
                    .invalidRequest,
                    "'\(key)' is fetched but not grouped: with aggregates or propertiesToGroupBy, every property to fetch must be named in propertiesToGroupBy (Core Data's GROUP BY rule)"
                )
            }
        }
        if request.havingPredicate != nil && groupedBy.isEmpty {
            throw ObjectGraphError(.invalidRequest, "a havingPredicate needs propertiesToGroupBy")
        }
    }

    private static let functions: [String: AggregateFunction] = [
        "sum:": .sum, "count:": .count, "min:": .min, "max:": .max, "average:": .avg,
    ]

    private static func column(
        _ description: ExpressionDescription,
        entity: EntityDescription,
        storedProperty: (String, String) throws -> String
    ) throws -> Column {
        guard let expression = description.expression else {
            throw ObjectGraphError(.invalidRequest, "the expression description '\(description.name)' has no expression")
        }
        switch expression.expressionType {
        case .keyPath:
            return .property(key: description.name, property: try storedProperty(expression.keyPath ?? "", "fetch"))
        case .function:
            let name = expression.function ?? ""
            guard let function = functions[name] else {
                throw ObjectGraphError(
                    .invalidRequest,
                    "the expression '\(expression)' of '\(description.name)' uses the function '\(name)'; a fetch computes sum:, count:, min:, max: and average:"
                )
            }
            guard let arguments = expression.arguments, arguments.count == 1, arguments[0].expressionType == .keyPath,
                let keyPath = arguments[0].keyPath
            else {
                throw ObjectGraphError(
                    .invalidRequest,
                    "the expression '\(expression)' of '\(description.name)' needs one key-path argument, e.g. \(name)(views)"
                )
            }
            if keyPath.contains(".") {
                throw ObjectGraphError(
                    .invalidRequest,
                    "the expression '\(expression)' of '\(description.name)' reads '\(keyPath)'; aggregates read a property of \(entity.name) itself"
                )
            }
            return .aggregate(
                key: description.name,
                function: function,
                property: function == .count && keyPath == "objectID" ? nil : try storedProperty(keyPath, "aggregate"),
                type: description.expressionResultType
            )
        }
    }

    // MARK: Aggregating

    /// The results of an aggregating fetch over `rows` (each the values of ``reads`` by name):
    /// one per group, in the order the groups first appear.
    func aggregated(_ rows: [[String: Value]]) -> [[String: Value]] {
        var order: [[Value]] = []
        var groups: [[Value]: [[String: Value]]] = [:]
        for row in rows {
            let key = groupedBy.map { row[$0] ?? .null }
            if groups[key] == nil { order.append(key) }
            groups[key, default: []].append(row)
        }
        if groupedBy.isEmpty && order.isEmpty { order.append([]) }
        return order.map { key in
            let members = groups[key] ?? []
            var result: [String: Value] = [:]
            for column in columns {
                switch column {
                case .property(let key, let property):
                    result[key] = members.first?[property] ?? .null
                case .aggregate(let key, let function, let property, let type):
                    let values = property.map { name in members.map { $0[name] ?? .null } } ?? members.map { _ in .bool(true) }
                    result[key] = Self.converted(Self.aggregate(function, of: values), to: type)
                }
            }
            return result
        }
    }

    /// `function` of the values that are not `nil`, as Core Data's SQL computes it.
    static func aggregate(_ function: AggregateFunction, of values: [Value]) -> Value {
        let present = values.filter { !$0.isNull }
        switch function {
        case .count:
            return .int(Int64(present.count))
        case .min, .max:
            let wanted: ComparisonResult = function == .min ? .orderedAscending : .orderedDescending
            return present.dropFirst().reduce(present.first ?? .null) { best, value in
                Value.sortCompare(value, best) == wanted ? value : best
            }
        case .sum:
            // The evaluator's @sum and @avg, which the SQLite store's og_sum and og_avg share.
            return PredicateEvaluator.sum(present)
        case .avg:
            return PredicateEvaluator.average(present)
        }
    }

    /// `value` as an expression's result type makes it (`nil`: as computed).
    static func converted(_ value: Value, to type: AttributeType?) -> Value {
        guard let type else { return value }
        switch (type, value) {
        case (.integer16, .double(let d)), (.integer32, .double(let d)), (.integer64, .double(let d)):
            return d.isFinite && abs(d) < 9.2e18 ? .int(Int64(d)) : value
        case (.integer16, .decimal(let d)), (.integer32, .decimal(let d)), (.integer64, .decimal(let d)):
            return .int(NSDecimalNumber(decimal: d).int64Value)
        case (.double, .int(let i)), (.float, .int(let i)): return .double(Double(i))
        case (.double, .decimal(let d)), (.float, .decimal(let d)): return .double(NSDecimalNumber(decimal: d).doubleValue)
        case (.decimal, .int(let i)): return .decimal(Decimal(i))
        case (.decimal, .double(let d)) where d.isFinite: return .decimal(Decimal(d))
        case (.boolean, .int(let i)): return .bool(i != 0)
        default: return value
        }
    }
}
