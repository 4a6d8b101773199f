import Foundation

extension PersistentHistoryTransaction {
    /// The entity name of history transactions in a ``FetchRequest`` (see ``fetchRequest``).
    public static let entityName = "PersistentHistoryTransaction"

    /// A new request on history transactions, to narrow a history fetch with a predicate on
    /// `author`, `bundleID`, `contextName`, `processID`, `storeID`, `timestamp` or
    /// `transactionNumber` (see ``PersistentHistoryChangeRequest/fetchRequest``). Optional,
    /// as Core Data's, so ported code (`fetchRequest!`) reads the same.
    public static var fetchRequest: FetchRequest<any FetchRequestResult>? {
        FetchRequest(entityName: entityName)
    }

    /// The keys a history fetch request's predicate reads.
    var predicateValues: [String: Any] {
        var values: [String: Any] = [
            "bundleID": bundleID, "processID": processID, "storeID": storeID, "timestamp": timestamp,
            "transactionNumber": transactionNumber,
        ]
        values["author"] = author
        values["contextName"] = contextName
        return values
    }
}

extension PersistentHistoryChange {
    /// The entity name of history changes in a ``FetchRequest`` (see ``fetchRequest``).
    public static let entityName = "PersistentHistoryChange"

    /// A new request on history changes, to narrow a history fetch with a predicate on
    /// `changeID`, `changeType` (its raw value), `changedEntity` (the entity's name, or its
    /// ``EntityDescription``) or `changedObjectID` (see
    /// ``PersistentHistoryChangeRequest/fetchRequest``).
    public static var fetchRequest: FetchRequest<any FetchRequestResult>? {
        FetchRequest(entityName: entityName)
    }

    /// The keys a history fetch request's predicate reads.
    var predicateValues: [String: Any] {
        [
            "changeID": changeID, "changeType": changeType.rawValue, "changedEntity": changedObjectID.entityName,
            "changedObjectID": changedObjectID,
        ]
    }
}

extension PersistentHistoryChangeRequest {
    /// Whether ``fetchRequest`` selects changes (so they are read even for a result without them).
    package var narrowsChanges: Bool { fetchRequest?.entityName == PersistentHistoryChange.entityName }

    /// `transactions` and `changes` narrowed by ``fetchRequest``; with `changesOnly`, the
    /// changes are what the result lists (transactions then hold no changes).
    package func narrowed(
        _ transactions: [PersistentHistoryTransaction],
        _ changes: [PersistentHistoryChange],
        changesOnly: Bool
    ) throws -> ([PersistentHistoryTransaction], [PersistentHistoryChange]) {
        guard let fetchRequest else { return (transactions, changes) }
        func window<T>(_ items: [T]) -> [T] {
            let skipped = items.dropFirst(fetchRequest.fetchOffset)
            return Array(fetchRequest.fetchLimit > 0 ? skipped.prefix(fetchRequest.fetchLimit) : skipped)
        }
        switch fetchRequest.entityName {
        case PersistentHistoryTransaction.entityName:
            let kept = window(try transactions.filter { try fetchRequest.predicate?.evaluate(with: $0.predicateValues) ?? true })
            let numbers = Set(kept.map(\.transactionNumber))
            return (kept, changes.filter { $0.transaction.map { numbers.contains($0.transactionNumber) } ?? false })
        case PersistentHistoryChange.entityName:
            let kept = window(try changes.filter { try fetchRequest.predicate?.evaluate(with: $0.predicateValues) ?? true })
            let keptIDs = Set(kept.map(\.changeID))
            var holding: Set<Int64> = []
            for change in kept { if let number = change.transaction?.transactionNumber { holding.insert(number) } }
            let narrowedTransactions = transactions.filter { holding.contains($0.transactionNumber) }
            let withoutChanges = resultType == .transactionsOnly || resultType == .count
            if !changesOnly {
                for transaction in narrowedTransactions {
                    transaction.changes = withoutChanges ? nil : transaction.changes?.filter { keptIDs.contains($0.changeID) }
                }
            }
            return (narrowedTransactions, kept)
        default:
            throw ObjectGraphError(
                .invalidRequest,
                "a persistent history fetch request must be on \(PersistentHistoryTransaction.entityName) or \(PersistentHistoryChange.entityName), not '\(fetchRequest.entityName ?? "nil")'; use PersistentHistoryTransaction.fetchRequest or PersistentHistoryChange.fetchRequest"
            )
        }
    }
}

extension PersistentHistoryChangeRequest {
    /// `transactions` and `changes` (already narrowed) shaped as ``resultType`` asks: what every
    /// store returns for a history fetch.
    package func result(_ transactions: [PersistentHistoryTransaction], _ changes: [PersistentHistoryChange]) -> PersistentHistoryResult {
        let value: Any
        switch resultType {
        case .statusOnly: value = true
        case .count: value = transactions.count
        case .transactionsOnly, .transactionsAndChanges: value = transactions
        case .changesOnly: value = changes
        case .objectIDs:
            var seen = Set<ManagedObjectID>()
            value = changes.map(\.changedObjectID).filter { seen.insert($0).inserted }
        }
        return PersistentHistoryResult(resultType: resultType, result: value, transactions: transactions)
    }
}

extension EntityDescription: PredicateArgumentConvertible {
    /// An entity stands for its name in a predicate (`changedEntity == %@`).
    package var predicateArgument: Value { .string(name) }
}
