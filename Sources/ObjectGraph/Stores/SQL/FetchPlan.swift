import Foundation

/// A fetch's compiled form: whether the store's SQL can apply the predicate, and the SQL clauses
/// of the query in the store's ``SQLDialect``, computed once per request (``FetchRequest`` keeps
/// it until its entity, predicate, sort or sub-entity setting changes) instead of on every fetch.
/// No database library's type is in it: a plan crosses the store boundary.
///
/// A plan holds two compilations: with the predicate (when the dialect can express it) and
/// without it (the entity filter only, for fetches that evaluate the predicate in memory). Limit and
/// offset are not part of it: they are bound when a query runs. Compilation errors are kept
/// and thrown only when the part that failed is used, as when each fetch compiled its SQL.
package struct FetchPlan: Sendable {
    /// The WHERE and ORDER BY of one compilation, with the to-one joins they need.
    struct Clauses: Sendable {
        /// The joins the WHERE clause needs.
        let whereJoins: [String]
        /// ` WHERE …`, or empty.
        let whereClause: String
        let whereArguments: [SQLValue]
        /// The ORDER BY terms (before the primary-key tie-breaker) and the joins of the
        /// WHERE clause and the sort together, or the error compiling the sort.
        let order: Result<Order, any Error>
    }

    struct Order: Sendable {
        let joins: [String]
        let terms: [String]
        let arguments: [SQLValue]
        /// The sort keys to order by in memory, when the dialect cannot write the order
        /// (`terms` is then empty).
        let inMemory: InMemorySort?
    }

    /// A sort the store applies itself, after reading each row's sort keys: the dialect has
    /// no ORDER BY that orders as the evaluator does (``SQLDialect/sortsInMemory(_:)``).
    package struct InMemorySort: Sendable {
        /// The fetch's sort descriptors.
        package let descriptors: [FetchSortDescriptor]
        /// One SQL expression per descriptor, its sort key (the primary key for a descriptor
        /// without a key or a to-one relationship).
        package let keys: [String]
        /// The attribute type of each key, to decode it.
        package let types: [AttributeType?]

        /// `items` in the descriptors' order, then by primary key (when given), as the
        /// evaluator's sort (``FetchSortOrder``) orders; then `offset` and `limit` applied
        /// (`0`: none).
        package func arrange<Item>(
            _ items: [Item],
            keys: (Item) -> [Value],
            primaryKey: (Item) -> Int64?,
            offset: Int,
            limit: Int
        ) -> [Item] {
            let keyed = items.map { (item: $0, keys: keys($0), pk: primaryKey($0)) }
            var sorted = keyed.sorted { lhs, rhs in
                for (index, descriptor) in descriptors.enumerated() {
                    let order = descriptor.compare(lhs.keys[index], rhs.keys[index])
                    if order != .orderedSame { return order == .orderedAscending }
                }
                guard let a = lhs.pk, let b = rhs.pk else { return false }
                return a < b
            }.map(\.item)
            if offset > 0 { sorted = Array(sorted.dropFirst(offset)) }
            if limit > 0 { sorted = Array(sorted.prefix(limit)) }
            return sorted
        }
    }

    /// The predicate's outcome: SQL, evaluation in memory, or an error.
    enum Filter: Sendable {
        case sql(Clauses)
        case inMemory(reason: String)
        case failed(any Error)
    }

    /// The store identifier and model of the store that compiled the plan.
    package let storeIdentifier: String
    package let model: ManagedObjectModel
    /// The table of the fetched entity's inheritance tree.
    let table: String
    /// The dialect the clauses are written in.
    let dialect: any SQLDialect
    /// The query with the predicate applied by the database.
    let filtered: Filter
    /// The query without the predicate (entity filter and sort only).
    let unfiltered: Clauses

    /// Whether the store's SQL cannot express the predicate, so the fetch reads every object of
    /// the entity and evaluates the predicate in memory.
    package var needsInMemoryEvaluation: Bool {
        if case .inMemory = filtered { return true }
        return false
    }
}

extension FetchPlan {
    /// Compiles the plan of `request` for a store laid out as `schema`, in `dialect`: its
    /// predicate once with SQL (or the reason it has none), and the entity filter and sort
    /// without the predicate.
    ///
    /// - Throws: ``ObjectGraphError`` when the store has no such entity.
    init(
        compiling request: FetchDescriptor,
        schema: StoreSchema,
        model: ManagedObjectModel,
        dialect: any SQLDialect,
        storeIdentifier: String
    ) throws {
        guard let entity = model.entity(named: request.entity), let mapping = schema.mappings[entity.name] else {
            throw ObjectGraphError(.entityNotFound, "the model has no entity named '\(request.entity)'")
        }
        func clauses(_ predicate: PredicateNode?) throws -> Clauses {
            try Self.clauses(request, predicate: predicate, entity: entity, schema: schema, model: model, dialect: dialect)
        }
        let filtered: Filter
        do {
            filtered = .sql(try clauses(request.predicate))
        } catch let error as NeedsInMemoryEvaluation {
            filtered = .inMemory(reason: error.reason)
        } catch {
            filtered = .failed(error)
        }
        // Without a predicate only the sort can fail, and that failure is kept in `order`.
        let unfiltered = try clauses(nil)
        self.init(
            storeIdentifier: storeIdentifier,
            model: model,
            table: mapping.table,
            dialect: dialect,
            filtered: filtered,
            unfiltered: unfiltered
        )
    }

    /// Compiles the WHERE clause with `predicate`, then the sort in the same scope.
    private static func clauses(
        _ request: FetchDescriptor,
        predicate: PredicateNode?,
        entity: EntityDescription,
        schema: StoreSchema,
        model: ManagedObjectModel,
        dialect: any SQLDialect
    ) throws -> Clauses {
        var compiler = SQLCompiler(schema: schema, model: model, dialect: dialect)
        let scope = SQLCompiler.Scope(entity: entity, alias: "t0")
        var filter = request
        filter.predicate = predicate
        let whereClause = try compiler.whereClause(for: filter, entity: entity, scope: scope)
        let whereJoins = scope.joins
        let whereArguments = compiler.arguments
        let order = Result { () throws -> Order in
            let (terms, inMemory) = try compiler.orderTerms(for: request.sortDescriptors, scope: scope)
            return Order(joins: scope.joins, terms: terms, arguments: compiler.arguments, inMemory: inMemory)
        }
        return Clauses(whereJoins: whereJoins, whereClause: whereClause, whereArguments: whereArguments, order: order)
    }
}
