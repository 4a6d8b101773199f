import Foundation
import ObjectGraph
import Testing

/// A random sequence of changes run against a fetched results controller, checked after every
/// step: the reported changes, applied with UITableView's rules to the previous sections, give
/// the controller's new sections, which equal a fresh fetch.
struct FetchedResultsScenario: CustomStringConvertible, Sendable {
    /// One change. Integers pick objects and values modulo what exists, so any sub-sequence of
    /// a scenario is still a valid scenario (which is what shrinking needs).
    enum Step: Hashable, Sendable, CustomStringConvertible {
        case insert(Int)
        case delete(Int)
        case setRank(Int, Int)
        case setGroup(Int, Int)
        case setName(Int, Int)
        case setNote(Int)
        case setOwner(Int, Int)
        case toggleLabel(Int, Int)
        case setOwnerLevel(Int, Int)
        case renameOwner(Int, Int)
        case renameLabel(Int, Int)
        case deleteOwner(Int)
        case background([Step])
        case save
        case rollback
        case reset

        var description: String {
            switch self {
            case .insert(let a): ".insert(\(a))"
            case .delete(let a): ".delete(\(a))"
            case .setRank(let a, let b): ".setRank(\(a), \(b))"
            case .setGroup(let a, let b): ".setGroup(\(a), \(b))"
            case .setName(let a, let b): ".setName(\(a), \(b))"
            case .setNote(let a): ".setNote(\(a))"
            case .setOwner(let a, let b): ".setOwner(\(a), \(b))"
            case .toggleLabel(let a, let b): ".toggleLabel(\(a), \(b))"
            case .setOwnerLevel(let a, let b): ".setOwnerLevel(\(a), \(b))"
            case .renameOwner(let a, let b): ".renameOwner(\(a), \(b))"
            case .renameLabel(let a, let b): ".renameLabel(\(a), \(b))"
            case .deleteOwner(let a): ".deleteOwner(\(a))"
            case .background(let steps): ".background([\(steps.map(\.description).joined(separator: ", "))])"
            case .save: ".save"
            case .rollback: ".rollback"
            case .reset: ".reset"
            }
        }
    }

    /// What the controller fetches: the request and section key path.
    struct Configuration: Sendable {
        let entity = "Item"
        let predicate: String?
        let sorts: [FetchSortDescriptor]
        let sectionNameKeyPath: String?
        var fetchLimit = 0
    }

    static let configurations: [Configuration] = [
        Configuration(
            predicate: nil,
            sorts: [FetchSortDescriptor(key: "rank", ascending: true), FetchSortDescriptor(key: "name", ascending: true)],
            sectionNameKeyPath: nil
        ),
        Configuration(
            predicate: nil,
            sorts: [FetchSortDescriptor(key: "group", ascending: true), FetchSortDescriptor(key: "rank", ascending: false)],
            sectionNameKeyPath: "group"
        ),
        Configuration(
            predicate: "rank >= 2",
            sorts: [
                FetchSortDescriptor(key: "group", ascending: true), FetchSortDescriptor(key: "owner.level", ascending: true),
                FetchSortDescriptor(key: "rank", ascending: true),
            ],
            sectionNameKeyPath: "group"
        ),
        Configuration(
            predicate: "ANY labels.name == 'red'",
            sorts: [FetchSortDescriptor(key: "owner.level", ascending: false), FetchSortDescriptor(key: "name", ascending: true)],
            sectionNameKeyPath: nil
        ),
        Configuration(
            predicate: nil,
            sorts: [FetchSortDescriptor(key: "owner.name", ascending: true), FetchSortDescriptor(key: "rank", ascending: true)],
            sectionNameKeyPath: "owner.name"
        ),
        Configuration(
            predicate: "owner.level > 1 OR note == nil",
            sorts: [
                FetchSortDescriptor(key: "name", ascending: true, selector: .caseInsensitiveCompare),
                FetchSortDescriptor(key: "rank", ascending: true),
            ],
            sectionNameKeyPath: nil
        ),
        Configuration(predicate: "name != nil", sorts: [FetchSortDescriptor(key: "rank", ascending: true)], sectionNameKeyPath: nil, fetchLimit: 5),
        Configuration(
            predicate: "SUBQUERY(labels, $l, $l.name BEGINSWITH 'b').@count > 0 OR rank < 3",
            sorts: [FetchSortDescriptor(key: "group", ascending: false), FetchSortDescriptor(key: "name", ascending: true)],
            sectionNameKeyPath: "group"
        ),
        Configuration(predicate: nil, sorts: [FetchSortDescriptor(key: "rank", ascending: true)], sectionNameKeyPath: "rank"),
    ]

    static let groups: [String?] = ["A", "B", "C", "D", nil]
    static let names: [String?] = ["apple", "Banana", "banana", "cherry", "Date", nil, "éclair", "fig"]
    static let labelNames = ["red", "blue", "black", "green"]
    static let ownerNames: [String?] = ["Ann", "Bob", "Cy", nil]

    let seed: UInt64
    let configuration: Int
    let initialItems: Int
    var steps: [Step]

    var description: String {
        "FetchedResultsScenario(seed: \(seed), configuration: \(configuration), initialItems: \(initialItems), steps: [\(steps.map(\.description).joined(separator: ", "))])"
    }

    /// A random scenario.
    static func random(seed: UInt64, steps count: Int) -> FetchedResultsScenario {
        var random = TestRandom(seed: seed)
        func step(allowBackground: Bool) -> Step {
            let a = random.next(100)
            let b = random.next(100)
            switch random.next(allowBackground ? 17 : 12) {
            case 0, 1: return .insert(a)
            case 2: return .delete(a)
            case 3: return .setRank(a, b)
            case 4: return .setGroup(a, b)
            case 5: return .setName(a, b)
            case 6: return .setNote(a)
            case 7: return .setOwner(a, b)
            case 8: return .toggleLabel(a, b)
            case 9: return .setOwnerLevel(a, b)
            case 10: return .renameLabel(a, b)
            case 11: return random.next(4) == 0 ? .deleteOwner(a) : .renameOwner(a, b)
            case 12, 13: return .background((0...random.next(3)).map { _ in step(allowBackground: false) })
            case 14: return .save
            case 15: return .rollback
            default: return random.next(3) == 0 ? .reset : .save
            }
        }
        let configuration = random.next(configurations.count)
        let initialItems = random.next(14)
        return FetchedResultsScenario(
            seed: seed,
            configuration: configuration,
            initialItems: initialItems,
            steps: (0..<count).map { _ in step(allowBackground: true) }
        )
    }

    // MARK: Running

    static let model = ItemModel.make()

    /// Runs the scenario; returns the first failure, described, or `nil`.
    func failure() -> String? {
        do {
            return try run()
        } catch {
            return "threw \(error)"
        }
    }

    private func run() throws -> String? {
        // One scenario in fifty runs on an SQLite file (creating one costs fsyncs), the rest in
        // memory (the same SQL).
        let stack = try TestStack(inMemory: seed % 50 != 0, model: Self.model)
        defer { if let url = stack.url { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) } }
        let context = stack.container.newBackgroundContext()
        let writer = stack.container.newBackgroundContext()
        let configuration = Self.configurations[self.configuration]
        var random = TestRandom(seed: seed ^ 0x5EED)
        try writer.performAndWait {
            let owners = (0..<3).map { index in
                let owner = Owner(context: writer)
                owner.name = Self.ownerNames[index]
                owner.level = Int64(index)
                return owner
            }
            let labels = Self.labelNames.map { name in
                let label = Label(context: writer)
                label.name = name
                return label
            }
            for _ in 0..<initialItems {
                let item = Item(context: writer)
                item.name = Self.names[random.next(Self.names.count)]
                item.group = Self.groups[random.next(Self.groups.count)]
                item.rank = Int64(random.next(6))
                if random.next(4) > 0 { item.owner = owners[random.next(owners.count)] }
                for label in labels where random.next(3) == 0 { item.labels.insert(label) }
            }
            try writer.save()
        }
        return try context.performAndWait { () throws -> String? in
            let request = FetchRequest<Item>(entityName: configuration.entity)
            request.predicate = configuration.predicate.map { FetchPredicate(format: $0) }
            request.sortDescriptors = configuration.sorts
            request.fetchLimit = configuration.fetchLimit
            let recorder = ChangeRecorder()
            let controller = FetchedResultsController(
                fetchRequest: request,
                managedObjectContext: context,
                sectionNameKeyPath: configuration.sectionNameKeyPath,
                cacheName: nil
            )
            controller.delegate = recorder
            try controller.performFetch()
            var expected = SectionsModel(controller)
            for (number, step) in steps.enumerated() {
                try perform(step, in: context, writer: writer)
                context.processPendingChanges()
                if let error = recorder.errors.first { return "step \(number) \(step): controller failed: \(error)" }
                for batch in recorder.drain() {
                    do {
                        expected = try expected.applying(batch)
                    } catch {
                        return "step \(number) \(step): batch \(batch.objects) \(batch.sections) does not apply to \(expected): \(error)"
                    }
                    guard let difference = batch.difference, SectionsModel(difference.after) == expected else {
                        return "step \(number) \(step): the difference's after-snapshot disagrees with the applied changes"
                    }
                }
                let actual = SectionsModel(controller)
                guard actual == expected else {
                    return "step \(number) \(step): applying the changes gives \(expected), the controller has \(actual)"
                }
                let fresh = FetchedResultsController(
                    fetchRequest: request,
                    managedObjectContext: context,
                    sectionNameKeyPath: configuration.sectionNameKeyPath,
                    cacheName: nil
                )
                try fresh.performFetch()
                guard SectionsModel(fresh) == actual else {
                    return "step \(number) \(step): controller has \(actual), a fresh fetch has \(SectionsModel(fresh))"
                }
            }
            return nil
        }
    }

    private func all<T: ManagedObject>(_ type: T.Type, _ entity: String, in context: ManagedObjectContext) throws -> [T] {
        try context.fetch(FetchRequest<T>(entityName: entity)).sorted { $0.objectID.primaryKey < $1.objectID.primaryKey }
    }

    private func perform(_ step: Step, in context: ManagedObjectContext, writer: ManagedObjectContext) throws {
        switch step {
        case .background(let steps):
            let saved = try writer.savingChanges { for step in steps { try perform(step, in: writer, writer: writer) } }
            writer.performAndWait { writer.reset() }
            if let saved { context.mergeChanges(fromContextDidSave: saved) }
        case .save: try context.save()
        case .rollback: context.rollback()
        case .reset: context.reset()
        default: try edit(step, in: context)
        }
    }

    private func edit(_ step: Step, in context: ManagedObjectContext) throws {
        let items = try all(Item.self, "Item", in: context)
        func item(_ index: Int) -> Item? { items.isEmpty ? nil : items[index % items.count] }
        switch step {
        case .insert(let a):
            let item = Item(context: context)
            item.name = Self.names[a % Self.names.count]
            item.group = Self.groups[(a / 7) % Self.groups.count]
            item.rank = Int64(a % 6)
            let owners = try all(Owner.self, "Owner", in: context)
            if !owners.isEmpty && a % 5 != 0 { item.owner = owners[a % owners.count] }
            let labels = try all(Label.self, "Label", in: context)
            if !labels.isEmpty && a % 3 == 0 { item.labels.insert(labels[a % labels.count]) }
        case .delete(let a): if let item = item(a) { context.delete(item) }
        case .setRank(let a, let b): item(a)?.rank = Int64(b % 6)
        case .setGroup(let a, let b): item(a)?.group = Self.groups[b % Self.groups.count]
        case .setName(let a, let b): item(a)?.name = Self.names[b % Self.names.count]
        case .setNote(let a): if let item = item(a) { item.note = item.note == nil ? "noted" : nil }
        case .setOwner(let a, let b):
            let owners = try all(Owner.self, "Owner", in: context)
            item(a)?.owner = owners.isEmpty || b % 4 == 3 ? nil : owners[b % owners.count]
        case .toggleLabel(let a, let b):
            let labels = try all(Label.self, "Label", in: context)
            guard let item = item(a), !labels.isEmpty else { return }
            let label = labels[b % labels.count]
            if item.labels.contains(label) { item.labels.remove(label) } else { item.labels.insert(label) }
        case .setOwnerLevel(let a, let b):
            let owners = try all(Owner.self, "Owner", in: context)
            if !owners.isEmpty { owners[a % owners.count].level = Int64(b % 4) }
        case .renameOwner(let a, let b):
            let owners = try all(Owner.self, "Owner", in: context)
            if !owners.isEmpty { owners[a % owners.count].name = Self.ownerNames[b % Self.ownerNames.count] }
        case .renameLabel(let a, let b):
            let labels = try all(Label.self, "Label", in: context)
            if !labels.isEmpty { labels[a % labels.count].name = Self.labelNames[b % Self.labelNames.count] }
        case .deleteOwner(let a):
            let owners = try all(Owner.self, "Owner", in: context)
            if !owners.isEmpty { context.delete(owners[a % owners.count]) }
        case .background, .save, .rollback, .reset:
            break
        }
    }

    /// The smallest sub-sequence of steps (removing one step at a time) that still fails.
    func shrunk() -> FetchedResultsScenario {
        var current = self
        var changed = true
        while changed {
            changed = false
            for index in current.steps.indices.reversed() {
                var candidate = current
                candidate.steps.remove(at: index)
                if candidate.failure() != nil {
                    current = candidate
                    changed = true
                    break
                }
            }
        }
        return current
    }
}

extension SectionsModel {
    init(_ snapshot: FetchedResultsSnapshot) {
        self.init(snapshot.sectionIdentifiers.map { ($0, snapshot.itemIdentifiers(inSection: $0)) })
    }
}

extension ManagedObjectContext {
    /// Makes `changes` on this context's queue and saves; returns what the save reported (`nil`
    /// if there was nothing to save), to merge into another context.
    func savingChanges(_ changes: () throws -> Void) throws -> ContextDidSave? {
        try performAndWait {
            let payload = SavedPayload()
            let observation = addDidSaveObserver { payload.value = $0 }
            defer { observation.cancel() }
            try changes()
            try save()
            return payload.value
        }
    }
}

/// Holds the payload a did-save observer hears (called synchronously on the saving queue).
private final class SavedPayload: @unchecked Sendable {
    // @unchecked Sendable: written and read on the saving context's queue only.
    var value: ContextDidSave?
}

/// A small seeded generator (SplitMix64), so a failing seed reproduces.
struct TestRandom {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next(_ bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Int(z % UInt64(bound))
    }
}
