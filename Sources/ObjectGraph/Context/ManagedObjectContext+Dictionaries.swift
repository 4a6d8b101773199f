import Foundation

// Dictionary results, as Core Data's `dictionaryResultType`: the store's values of the
// properties to fetch, or aggregates over groups of them. Like Core Data, they read the store
// only (pending changes are not included).
extension ManagedObjectContext {
    /// The dictionaries `request` returns; `descriptor` is its prepared form (for a grouped
    /// request, without sort, offset and limit, which apply to the groups).
    func fetchDictionaries<T>(_ request: FetchRequest<T>, entity: EntityDescription, descriptor: FetchDescriptor) throws -> [[String: Any]] {
        let plan = try DictionaryFetch(request, entity: entity)
        var rows: [[String: Value]]
        if plan.aggregates {
            rows = plan.aggregated(try storedRows(plan.reads, entity: entity, descriptor: descriptor, distinct: false))
            if let having = request.havingPredicate {
                if let error = having.error { throw error }
                rows = try rows.filter { row in
                    let values = try publicValues(row, plan: plan, entity: entity)
                    // Every column is a variable, `nil` ones too (a group's `min:` of no values).
                    var variables: [String: Any?] = [:]
                    for column in plan.columns { variables[column.key] = values[column.key] }
                    return try having.evaluate(with: values, substitutionVariables: variables)
                }
            }
            rows = try sortedGroups(rows, by: request.sortDescriptors ?? [], plan: plan)
            let start = min(request.fetchOffset, rows.count)
            let end = request.fetchLimit > 0 ? min(rows.count, start + request.fetchLimit) : rows.count
            rows = Array(rows[start..<end])
        } else {
            let columns = plan.columns.map(\.key)
            let properties = plan.columns.map { column -> String in
                if case .property(_, let property) = column { return property }
                return column.key
            }
            rows = try storedRows(properties, entity: entity, descriptor: descriptor, distinct: request.returnsDistinctResults).map { row in
                var renamed: [String: Value] = [:]
                for (key, property) in zip(columns, properties) { renamed[key] = row[property] ?? .null }
                return renamed
            }
        }
        return try rows.map { try publicValues($0, plan: plan, entity: entity) }
    }

    /// The stored values of `properties` of each object `descriptor` matches, by name: read by
    /// the store, or (where its SQL cannot say the predicate or a sort) from the objects the
    /// fetch evaluated in memory.
    private func storedRows(_ properties: [String], entity: EntityDescription, descriptor: FetchDescriptor, distinct: Bool) throws -> [[String: Value]] {
        if !descriptor.needsInMemoryEvaluation {
            do {
                return try store().dictionaries(matching: descriptor, properties: properties, distinct: distinct)
            } catch is NeedsInMemoryEvaluation {}  // a sort the store applies in memory
        }
        let slots = properties.map { entity.slotByName[$0]! }
        var seen: Set<[Value]> = []
        return try fetchObjects(entity, descriptor, includePending: false).compactMap { object in
            object.fulfillIfNeeded()
            let values = slots.map { object.storage.values.isEmpty ? Value.null : object.storage.values[$0] }
            if distinct, !seen.insert(values).inserted { return nil }
            return Dictionary(uniqueKeysWithValues: zip(properties, values))
        }
    }

    /// A result's values as callers get them: each property's public type, an object ID for a
    /// to-one, an expression's computed value; `nil`s left out, as Core Data leaves them.
    private func publicValues(_ row: [String: Value], plan: DictionaryFetch, entity: EntityDescription) throws -> [String: Any] {
        var result: [String: Any] = [:]
        for column in plan.columns {
            guard let value = row[column.key], !value.isNull else { continue }
            switch column {
            case .property(let key, let property):
                let slot = entity.slotByName[property]!
                if let attribute = entity.allProperties[slot] as? AttributeDescription {
                    result[key] = try attribute.decodedValue(from: value)
                } else if case .objectID(let id) = value {
                    result[key] = id
                }
            case .aggregate(let key, _, _, let type):
                result[key] = type.flatMap { AttributeDescription.publicValue(of: $0, from: value) } ?? Self.computedValue(value)
            }
        }
        return result
    }

    /// An aggregate's value without a declared result type.
    private static func computedValue(_ value: Value) -> Any? {
        switch value {
        case .int(let i): i
        case .double(let d): d
        case .decimal(let d): d
        case .string(let s): s
        case .date(let d): d
        case .bool(let b): b
        case .data(let d): d
        case .uuid(let u): u
        case .url(let u): u
        case .objectID(let id): id
        case .null, .array: nil
        }
    }

    /// Groups in the order of `descriptors`, each naming a key of the results.
    private func sortedGroups(_ rows: [[String: Value]], by descriptors: [FetchSortDescriptor], plan: DictionaryFetch) throws -> [[String: Value]] {
        guard !descriptors.isEmpty else { return rows }
        let keys = Set(plan.columns.map(\.key))
        for descriptor in descriptors where descriptor.key.map(keys.contains) != true {
            throw ObjectGraphError(
                .invalidRequest,
                "cannot sort grouped results by '\(descriptor.key ?? "SELF")': sort by a property to fetch or an expression description's name"
            )
        }
        return rows.sorted { lhs, rhs in
            for descriptor in descriptors {
                let key = descriptor.key!
                switch descriptor.compare(lhs[key] ?? .null, rhs[key] ?? .null) {
                case .orderedAscending: return true
                case .orderedDescending: return false
                case .orderedSame: continue
                }
            }
            return false
        }
    }
}
