import Foundation
import Synchronization

extension SQLiteStore {
    /// Compiles the plan of `request` in SQLite's dialect (see ``FetchPlan``).
    ///
    /// - Throws: ``ObjectGraphError`` when the store has no such entity.
    func fetchPlan(for request: FetchDescriptor) throws -> FetchPlan {
        let plan = try FetchPlan(
            compiling: request,
            schema: schema,
            model: managedObjectModel,
            dialect: SQLiteDialect(),
            storeIdentifier: identifier
        )
        fetchPlansCompiled.withLock { $0 += 1 }
        return plan
    }

    /// The plan of the request `key` names, compiled on its first fetch (see ``FetchPlanCache``).
    func cachedFetchPlan(for request: FetchDescriptor, key: FetchPlanKey) throws -> FetchPlan {
        try fetchPlans.plan(for: key) { try fetchPlan(for: request) }
    }

    /// Whether `plan` was compiled by a store with this one's schema.
    func canUse(_ plan: FetchPlan) -> Bool {
        plan.storeIdentifier == identifier && plan.model === managedObjectModel
    }
}
