import Foundation
import Logging
import ObjectGraph

extension ModelContext {
    /// The models `descriptor` describes, in its order.
    ///
    /// The predicate and sort run in the store (SQL) where they translate; what does not is
    /// done in memory on the rows the store returns, and said so in the log and to the
    /// configuration's ``ModelConfiguration/sqlStatementObserver``.
    ///
    /// - Throws: a store error, or an error the predicate threw evaluating in memory.
    public func fetch<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [T] {
        let plan = FetchPlanner(descriptor: descriptor, context: self)
        let objects = try read { try managedObjectContext.fetch(plan.request) }
        // Room for the models at once: growing the registry by doubling rehashed it about
        // log2(n) times over a large first fetch. (Not count + n: a refetch of models already
        // registered would double the registry for nothing.)
        registry.reserveCapacity(max(registry.count, objects.count))
        var models = read { objects.map { model(for: $0, as: T.self) } }
        guard plan.needsMemoryPass else { return models }
        if let predicate = descriptor.predicate {
            models = try models.filter { try predicate.evaluate($0) }
        }
        if !plan.sortsInStore, !descriptor.sortBy.isEmpty {
            models.sort(using: descriptor.sortBy)
        }
        let offset = min(descriptor.fetchOffset ?? 0, models.count)
        let end = descriptor.fetchLimit.map { min(offset + $0, models.count) } ?? models.count
        return Array(models[offset..<end])
    }

    /// How many models `descriptor` describes (without reading them, when its predicate
    /// translates fully).
    public func fetchCount<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> Int {
        let plan = FetchPlanner(descriptor: descriptor, context: self)
        guard !plan.needsMemoryPass else { return try fetch(descriptor).count }
        return try read { try managedObjectContext.count(for: plan.request) }
    }

    /// The identifiers of the models `descriptor` describes.
    public func fetchIdentifiers<T: PersistentModel>(_ descriptor: FetchDescriptor<T>) throws -> [PersistentIdentifier] {
        let plan = FetchPlanner(descriptor: descriptor, context: self)
        guard !plan.needsMemoryPass else { return try fetch(descriptor).map(\.persistentModelID) }
        let request = FetchRequest<ManagedObjectID>(entityName: T.entityName)
        request.predicate = plan.request.predicate
        request.sortDescriptors = plan.request.sortDescriptors
        request.fetchLimit = plan.request.fetchLimit
        request.fetchOffset = plan.request.fetchOffset
        request.includesPendingChanges = plan.request.includesPendingChanges
        return try read { try managedObjectContext.fetch(request) }.map(PersistentIdentifier.init)
    }

    /// Calls `block` with each model `descriptor` describes, fetching `batchSize` at a time.
    ///
    /// - Throws: a fetch's error, or `block`'s (which stops the enumeration).
    public func enumerate<T: PersistentModel>(
        _ descriptor: FetchDescriptor<T>,
        batchSize: Int = 5000,
        allowEscapingMutations: Bool = false,
        block: (T) throws -> Void
    ) throws {
        let identifiers = try fetchIdentifiers(descriptor)
        var start = 0
        while start < identifiers.count {
            let batch = identifiers[start..<min(start + max(batchSize, 1), identifiers.count)]
            for identifier in batch {
                if let model = model(for: identifier) as? T { try block(model) }
            }
            start += batch.count
        }
    }

    /// What `descriptor`'s predicate becomes: the store's part and what stays in memory.
    public func translation<T: PersistentModel>(of descriptor: FetchDescriptor<T>) -> PredicateTranslation {
        guard let predicate = descriptor.predicate else { return PredicateTranslation(storePredicate: nil, inMemory: []) }
        return PredicateTranslation.translate(predicate, in: self)
    }
}

/// An ObjectGraph fetch request for a descriptor, and what is left for memory.
struct FetchPlanner<T: PersistentModel> {
    let request: FetchRequest<ManagedObject>
    /// Whether the predicate, sort, limit or offset must be applied in memory.
    let needsMemoryPass: Bool
    /// Whether the store sorts.
    let sortsInStore: Bool

    private static var logger: Logger { Logger(label: "ObjectGraphData") }

    init(descriptor: FetchDescriptor<T>, context: ModelContext) {
        let request = FetchRequest<ManagedObject>(entityName: T.entityName)
        request.includesPendingChanges = descriptor.includePendingChanges
        // Models come with their values: reading a property is then no fault to fire.
        request.returnsObjectsAsFaults = false
        var inMemory: [String] = []
        if let predicate = descriptor.predicate {
            let translation = PredicateTranslation.translate(predicate, in: context)
            request.predicate = translation.storePredicate
            inMemory = translation.inMemory
        }
        var sorts: [FetchSortDescriptor] = []
        for sort in descriptor.sortBy {
            guard let keyPath = sort.keyPath, let key = _ModelKeyPathRecorder.name(of: keyPath) else {
                inMemory.append("sort \(sort) is not on a persisted property")
                break
            }
            sorts.append(FetchSortDescriptor(key: key, ascending: sort.order == .forward, selector: Self.selector(of: sort)))
        }
        let sortsInStore = sorts.count == descriptor.sortBy.count
        if sortsInStore { request.sortDescriptors = sorts }
        needsMemoryPass = !inMemory.isEmpty
        self.sortsInStore = sortsInStore || descriptor.sortBy.isEmpty
        if !needsMemoryPass {
            request.fetchLimit = descriptor.fetchLimit ?? 0
            request.fetchOffset = descriptor.fetchOffset ?? 0
        } else {
            let message = "ObjectGraphData: \(T.entityName) fetch evaluated in memory: \(inMemory.joined(separator: "; "))"
            Self.logger.notice("\(message)")
            for observer in context.statementObservers { observer("-- " + message) }
        }
        if !descriptor.relationshipKeyPathsForPrefetching.isEmpty {
            request.relationshipKeyPathsForPrefetching = descriptor.relationshipKeyPathsForPrefetching.compactMap {
                _ModelKeyPathRecorder.name(of: $0)
            }
        }
        self.request = request
    }

    /// The store's comparison for a sort: `localizedStandardCompare:` for `.localizedStandard`.
    private static func selector(of sort: SortDescriptor<T>) -> FetchSortDescriptor.Selector {
        guard let comparator = sort.stringComparator else { return .compare }
        let forward = String.StandardComparator(comparator, order: .forward)
        if forward == String.StandardComparator(.localizedStandard, order: .forward) { return .localizedStandardCompare }
        if forward == String.StandardComparator(.localized, order: .forward) { return .localizedCompare }
        return .compare
    }
}
