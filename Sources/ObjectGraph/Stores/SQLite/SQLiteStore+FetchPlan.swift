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

    /// Whether `plan` was compiled by a store with this one's schema.
    func canUse(_ plan: FetchPlan) -> Bool {
        plan.storeIdentifier == identifier && plan.model === managedObjectModel
    }
}
