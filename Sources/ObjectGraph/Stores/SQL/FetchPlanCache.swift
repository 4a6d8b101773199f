import Synchronization

/// The number that names one fetch request's plan-relevant contents (entity, predicate, sort,
/// sub-entities) in a store's ``FetchPlanCache``.
///
/// A ``FetchRequest`` takes a new key when it is made and every time one of those changes, so a
/// key never names two contents: not two requests (a key is never reused, unlike an object's
/// address), not one request before and after a change.
package struct FetchPlanKey: Hashable, Sendable {
    private let value: UInt64

    private static let issued = Atomic<UInt64>(0)

    /// A key no request has had.
    package static func next() -> FetchPlanKey {
        FetchPlanKey(value: issued.wrappingAdd(1, ordering: .relaxed).newValue)
    }

    /// The key of the same request fetched without its sort (a grouped dictionary fetch sorts
    /// its groups itself): no key ``next()`` issues, nor another request's.
    package var unsorted: FetchPlanKey { FetchPlanKey(value: value | 1 << 63) }
}

/// The fetch plans a store compiled, by the key of the request they were compiled for.
///
/// Owned by the store (every context of the store shares it) so the caller's request carries
/// no compiled state. A repeated fetch costs one uncontended lock and one dictionary lookup of
/// a 64-bit key; the plan is compiled only when its request is new or changed. Keys of
/// requests that changed or went away are not tracked: when the cache holds ``capacity``
/// plans it is emptied, and live requests compile again once.
///
/// Invariants: a plan is stored under the key of the request contents it was compiled from;
/// compilation runs outside the lock (two threads may compile the same plan; the last one
/// stays).
package final class FetchPlanCache: Sendable {
    /// The most plans kept.
    package let capacity: Int
    private let plans = Mutex<[FetchPlanKey: FetchPlan]>([:])

    /// A cache keeping up to `capacity` plans.
    package init(capacity: Int = 512) {
        self.capacity = capacity
    }

    /// The plan kept for `key`, if any.
    package func plan(for key: FetchPlanKey) -> FetchPlan? {
        plans.withLock { $0[key] }
    }

    /// The plan kept for `key`, or the one `compile` makes, then kept.
    package func plan(for key: FetchPlanKey, compile: () throws -> FetchPlan) rethrows -> FetchPlan {
        if let plan = plans.withLock({ $0[key] }) { return plan }
        let plan = try compile()
        plans.withLock { plans in
            if plans.count >= capacity { plans.removeAll(keepingCapacity: true) }
            plans[key] = plan
        }
        return plan
    }

    /// How many plans are kept.
    package var count: Int { plans.withLock { $0.count } }
}
