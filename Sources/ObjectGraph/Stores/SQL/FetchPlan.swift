import Foundation
import GRDB

/// A fetch's compiled form: whether SQLite can apply the predicate, and the SQL clauses of the
/// query, computed once per request (``FetchRequest`` keeps it until its entity, predicate,
/// sort or sub-entity setting changes) instead of on every fetch.
///
/// A plan holds two compilations: with the predicate (when SQLite can express it) and without
/// it (the entity filter only, for fetches that evaluate the predicate in memory). Limit and
/// offset are not part of it: they are bound when a query runs. Compilation errors are kept
/// and thrown only when the part that failed is used, as when each fetch compiled its SQL.
struct FetchPlan: Sendable {
    /// The WHERE and ORDER BY of one compilation, with the to-one joins they need.
    struct Clauses: Sendable {
        /// The joins the WHERE clause needs.
        let whereJoins: [String]
        /// ` WHERE …`, or empty.
        let whereClause: String
        let whereArguments: [DatabaseValue]
        /// The ORDER BY terms (before the primary-key tie-breaker) and the joins of the
        /// WHERE clause and the sort together, or the error compiling the sort.
        let order: Result<Order, any Error>
    }

    struct Order: Sendable {
        let joins: [String]
        let terms: [String]
        let arguments: [DatabaseValue]
    }

    /// The predicate's outcome: SQL, evaluation in memory, or an error.
    enum Filter: Sendable {
        case sql(Clauses)
        case inMemory(reason: String)
        case failed(any Error)
    }

    /// The store identifier and model of the store that compiled the plan.
    let storeIdentifier: String
    let model: ManagedObjectModel
    /// The table of the fetched entity's inheritance tree.
    let table: String
    /// The query with the predicate applied by SQLite.
    let filtered: Filter
    /// The query without the predicate (entity filter and sort only).
    let unfiltered: Clauses

    /// Whether SQLite cannot express the predicate, so the fetch reads every object of the
    /// entity and evaluates the predicate in memory.
    var needsInMemoryEvaluation: Bool {
        if case .inMemory = filtered { return true }
        return false
    }
}

extension SQLiteStore {
    /// Compiles the plan of `request`: its predicate once with SQL (or the reason it has none),
    /// and the entity filter and sort without the predicate.
    ///
    /// - Throws: ``ObjectGraphError`` when the store has no such entity.
    func fetchPlan(for request: FetchDescriptor) throws -> FetchPlan {
        guard let entity = managedObjectModel.entity(named: request.entity), let mapping = schema.mappings[entity.name] else {
            throw ObjectGraphError(.entityNotFound, "the model has no entity named '\(request.entity)'")
        }
        fetchPlansCompiled.withLock { $0 += 1 }
        let filtered: FetchPlan.Filter
        do {
            filtered = .sql(try clauses(request, entity: entity, predicate: request.predicate))
        } catch let error as NeedsInMemoryEvaluation {
            filtered = .inMemory(reason: error.reason)
        } catch {
            filtered = .failed(error)
        }
        // Without a predicate only the sort can fail, and that failure is kept in `order`.
        let unfiltered = try clauses(request, entity: entity, predicate: nil)
        return FetchPlan(
            storeIdentifier: identifier,
            model: managedObjectModel,
            table: mapping.table,
            filtered: filtered,
            unfiltered: unfiltered
        )
    }

    /// Whether `plan` was compiled by a store with this one's schema.
    func canUse(_ plan: FetchPlan) -> Bool {
        plan.storeIdentifier == identifier && plan.model === managedObjectModel
    }

    /// Compiles the WHERE clause with `predicate`, then the sort in the same scope.
    private func clauses(_ request: FetchDescriptor, entity: EntityDescription, predicate: PredicateNode?) throws -> FetchPlan.Clauses {
        var compiler = SQLCompiler(schema: schema, model: managedObjectModel)
        let scope = SQLCompiler.Scope(entity: entity, alias: "t0")
        var filter = request
        filter.predicate = predicate
        let whereClause = try compiler.whereClause(for: filter, entity: entity, scope: scope)
        let whereJoins = scope.joins
        let whereArguments = compiler.arguments
        let order = Result { () throws -> FetchPlan.Order in
            let terms = try compiler.orderTerms(for: request.sortDescriptors, scope: scope)
            return FetchPlan.Order(joins: scope.joins, terms: terms, arguments: compiler.arguments)
        }
        return FetchPlan.Clauses(whereJoins: whereJoins, whereClause: whereClause, whereArguments: whereArguments, order: order)
    }
}
