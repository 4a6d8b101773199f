import Foundation
import ObjectGraphPeerModel
import Testing

@testable import ObjectGraph

/// Process A of a multi-process test: fetched results controllers on a context that merges
/// other processes' saves automatically, each checked against a fresh fetch of another
/// coordinator on the same file.
final class RemoteObserver: @unchecked Sendable {
    // @unchecked Sendable: the watches are touched only on `context`'s queue.

    /// One controller and what it should show.
    final class Watch {
        let name: String
        let controller: FetchedResultsController<ManagedObject>
        let recorder = ChangeRecorder()
        let request: FetchRequest<ManagedObject>
        let sectionNameKeyPath: String?
        let describe: (ManagedObject) -> String
        /// The sections as the reported changes build them.
        var expected: SectionsModel

        init(
            _ name: String,
            _ request: FetchRequest<ManagedObject>,
            sectionNameKeyPath: String?,
            context: ManagedObjectContext,
            describe: @escaping (ManagedObject) -> String
        ) throws {
            self.name = name
            self.request = request
            self.sectionNameKeyPath = sectionNameKeyPath
            self.describe = describe
            controller = FetchedResultsController(
                fetchRequest: request,
                managedObjectContext: context,
                sectionNameKeyPath: sectionNameKeyPath,
                cacheName: nil
            )
            controller.delegate = recorder
            try controller.performFetch()
            expected = SectionsModel(controller)
        }
    }

    let container: PersistentContainer
    let context: ManagedObjectContext
    /// Another coordinator on the file, whose fresh contexts say what the store holds.
    let truth: PersistentContainer
    private var watches: [Watch] = []

    /// Opens the store at `url` with remote change notifications, and the controllers.
    init(url: URL, options: [String: any Sendable] = [:]) throws {
        container = try PeerModel.open(url, remoteChanges: true, options: options)
        truth = try PeerModel.open(url, remoteChanges: false)
        context = container.newBackgroundContext()
        context.name = "observer"
        context.automaticallyMergesChangesFromParent = true
        try context.performAndWait { [self] in
            func request(_ entity: String, _ predicate: String?, _ sorts: [FetchSortDescriptor]) -> FetchRequest<ManagedObject> {
                let request = FetchRequest<ManagedObject>(entityName: entity)
                request.predicate = predicate.map { FetchPredicate(format: $0) }
                request.sortDescriptors = sorts
                return request
            }
            let byName = FetchSortDescriptor(key: "name", ascending: true)
            watches = [
                try Watch(
                    "items by group",
                    request("Item", nil, [FetchSortDescriptor(key: "group", ascending: true), byName]),
                    sectionNameKeyPath: "group",
                    context: context,
                    describe: PeerModel.describe
                ),
                try Watch(
                    "red items",
                    request("Item", "ANY labels.name == 'red'", [byName]),
                    sectionNameKeyPath: nil,
                    context: context,
                    describe: PeerModel.describe
                ),
                try Watch(
                    "ada's items by rank",
                    request("Item", "owner.name == 'ada'", [FetchSortDescriptor(key: "rank", ascending: false), byName]),
                    sectionNameKeyPath: nil,
                    context: context,
                    describe: PeerModel.describe
                ),
                try Watch("owners", request("Owner", nil, [byName]), sectionNameKeyPath: nil, context: context, describe: Self.describeOwner),
                try Watch("labels", request("Label", nil, [byName]), sectionNameKeyPath: nil, context: context, describe: Self.describeLabel),
            ]
        }
    }

    /// An owner: name and its items in order.
    static func describeOwner(_ owner: ManagedObject) -> String {
        let items = (owner.value(forKey: "items") as? [ManagedObject]) ?? []
        return "\(owner.value(forKey: "name") as? String ?? "?"): \(items.compactMap { $0.value(forKey: "name") as? String })"
    }

    /// A label: name and its items' names.
    static func describeLabel(_ label: ManagedObject) -> String {
        let items = (label.value(forKey: "items") as? Set<ManagedObject>) ?? []
        return "\(label.value(forKey: "name") as? String ?? "?"): \(items.compactMap { $0.value(forKey: "name") as? String }.sorted())"
    }

    /// The change batches each controller reported since the last call, by watch name (applied
    /// to what ``check(after:)`` expects, as it applies them).
    func drainBatches() -> [String: [ChangeRecorder.Batch]] {
        context.performAndWait {
            absorb()
            defer { reported = [:] }
            return reported
        }
    }

    /// Batches taken from the recorders, kept for ``drainBatches()``.
    private var reported: [String: [ChangeRecorder.Batch]] = [:]
    /// Batches that did not apply, reported by the next ``check(after:)``.
    private var applyFailures: [String] = []

    /// Takes every watch's new batches and applies them to what it expects; on the context's queue.
    private func absorb() {
        for watch in watches {
            for batch in watch.recorder.drain() {
                reported[watch.name, default: []].append(batch)
                do {
                    watch.expected = try watch.expected.applying(batch)
                } catch {
                    applyFailures.append("\(watch.name): batch \(batch.objects) does not apply to \(watch.expected): \(error)")
                }
            }
        }
    }

    /// Everything that disagrees after `step`, on the context's queue (after merges queued
    /// before the call): the reported changes applied to the previous sections must give the
    /// controller's sections, which must equal a fresh fetch of another coordinator, objects
    /// and values alike.
    func check(after step: String) throws -> [String] {
        try context.performAndWait {
            absorb()
            var failures = applyFailures.map { "\(step): \($0)" }
            applyFailures = []
            let fresh = truth.newBackgroundContext()
            for watch in watches {
                if let error = watch.recorder.errors.first { failures.append("\(step): \(watch.name): controller failed: \(error)") }
                let actual = SectionsModel(watch.controller)
                if actual != watch.expected {
                    failures.append("\(step): \(watch.name): the changes give \(watch.expected), the controller has \(actual)")
                }
                let (freshSections, freshValues) = try fresh.performAndWait {
                    let controller = FetchedResultsController(
                        fetchRequest: watch.request,
                        managedObjectContext: fresh,
                        sectionNameKeyPath: watch.sectionNameKeyPath,
                        cacheName: nil
                    )
                    try controller.performFetch()
                    return (SectionsModel(controller), (controller.fetchedObjects ?? []).map(watch.describe))
                }
                if actual != freshSections {
                    failures.append("\(step): \(watch.name): the controller has \(actual), a fresh fetch \(freshSections)")
                }
                let values = (watch.controller.fetchedObjects ?? []).map(watch.describe)
                if values != freshValues {
                    failures.append("\(step): \(watch.name): the controller shows \(values), a fresh fetch \(freshValues)")
                }
            }
            return failures
        }
    }
}
