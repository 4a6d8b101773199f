import Foundation
import ObjectGraph
import Testing

final class Item: ManagedObject {
    @Managed var name: String?
    @Managed var group: String?
    @Managed var rank: Int64
    @Managed var note: String?
    @Managed var owner: Owner?
    @Managed var labels: Set<Label>
}

final class Owner: ManagedObject {
    @Managed var name: String?
    @Managed var level: Int64
    @Managed var items: Set<Item>
}

final class Label: ManagedObject {
    @Managed var name: String?
    @Managed var items: Set<Item>
}

/// A small model for fetched-results tests: items in groups (sections), owned by owners whose
/// level can feed the sort, labelled by labels whose names can feed the predicate.
enum ItemModel {
    static func make() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Item", class: Item.self) {
                AttributeDescription("name", .string)
                AttributeDescription("group", .string)
                AttributeDescription("rank", .integer64, optional: false, defaultValue: 0)
                AttributeDescription("note", .string)
                RelationshipDescription("owner", to: "Owner", inverse: "items")
                RelationshipDescription("labels", to: "Label", inverse: "items", toMany: true)
            }
            EntityDescription("Owner", class: Owner.self) {
                AttributeDescription("name", .string)
                AttributeDescription("level", .integer64, optional: false, defaultValue: 0)
                RelationshipDescription("items", to: "Item", inverse: "owner", toMany: true)
            }
            EntityDescription("Label", class: Label.self) {
                AttributeDescription("name", .string)
                RelationshipDescription("items", to: "Item", inverse: "labels", toMany: true)
            }
        }
    }
}

/// Records what a controller reports, batch by batch.
final class ChangeRecorder: FetchedResultsControllerDelegate {
    struct SectionChange: Equatable {
        let name: String
        let index: Int
        let type: FetchedResultsChangeType
    }
    struct ObjectChange: Equatable {
        let id: ManagedObjectID
        let type: FetchedResultsChangeType
        let indexPath: IndexPath?
        let newIndexPath: IndexPath?
    }
    struct Batch {
        var sections: [SectionChange] = []
        var objects: [ObjectChange] = []
        var difference: FetchedResultsDifference?
        var ended = false
    }

    var batches: [Batch] = []
    var errors: [any Error] = []
    private var open: Batch?

    func controllerWillChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        #expect(open == nil, "will-change while a batch is open")
        open = Batch()
    }
    func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange sectionInfo: any FetchedResultsSectionInfo,
        atSectionIndex sectionIndex: Int,
        for type: FetchedResultsChangeType
    ) {
        open?.sections.append(SectionChange(name: sectionInfo.name, index: sectionIndex, type: type))
    }
    func controller(
        _ controller: FetchedResultsController<any FetchRequestResult>,
        didChange anObject: Any,
        at indexPath: IndexPath?,
        for type: FetchedResultsChangeType,
        newIndexPath: IndexPath?
    ) {
        let object = anObject as! ManagedObject
        open?.objects.append(ObjectChange(id: object.objectID, type: type, indexPath: indexPath, newIndexPath: newIndexPath))
    }
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didChangeContentWith difference: FetchedResultsDifference) {
        open?.difference = difference
    }
    func controllerDidChangeContent(_ controller: FetchedResultsController<any FetchRequestResult>) {
        guard var batch = open else {
            Issue.record("did-change without will-change")
            return
        }
        batch.ended = true
        batches.append(batch)
        open = nil
    }
    func controller(_ controller: FetchedResultsController<any FetchRequestResult>, didFailWith error: any Error) {
        errors.append(error)
    }

    /// Takes the batches recorded so far.
    func drain() -> [Batch] {
        defer { batches = [] }
        return batches
    }
}

/// A controller's sections as plain values: names and object IDs.
struct SectionsModel: Equatable, CustomStringConvertible {
    var sections: [(name: String, ids: [ManagedObjectID])]

    init(_ sections: [(name: String, ids: [ManagedObjectID])]) { self.sections = sections }

    init<T>(_ controller: FetchedResultsController<T>) {
        sections = (controller.sections ?? []).map { info in
            (info.name, (info.objects ?? []).map { ($0 as! ManagedObject).objectID })
        }
    }

    static func == (lhs: SectionsModel, rhs: SectionsModel) -> Bool {
        lhs.sections.count == rhs.sections.count && zip(lhs.sections, rhs.sections).allSatisfy { $0.name == $1.name && $0.ids == $1.ids }
    }

    var description: String {
        sections.map { "\($0.name.isEmpty ? "·" : $0.name): [\($0.ids.map { String($0.primaryKey) }.joined(separator: " "))]" }.joined(
            separator: " | "
        )
    }

    /// Applies a batch with UITableView's batch-update rules: section deletes and row deletes
    /// (and move sources) at old index paths, then section inserts and row inserts (and move
    /// destinations) at new index paths; updates must name surviving old rows.
    func applying(_ batch: ChangeRecorder.Batch) throws -> SectionsModel {
        struct Invalid: Error, CustomStringConvertible { let description: String }
        func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
            if !condition { throw Invalid(description: message()) }
        }
        let deletedSections = Set(batch.sections.filter { $0.type == .delete }.map(\.index))
        let insertedSections = batch.sections.filter { $0.type == .insert }.sorted { $0.index < $1.index }
        try check(deletedSections.count == batch.sections.filter { $0.type == .delete }.count, "a section deleted twice")
        for index in deletedSections { try check(index >= 0 && index < sections.count, "section delete \(index) out of range") }
        var removed: [Int: Set<Int>] = [:]
        // An object is reported once, or as one delete plus one insert (a move that cannot be a
        // table-view move).
        var seen: [ManagedObjectID: [FetchedResultsChangeType]] = [:]
        for change in batch.objects { seen[change.id, default: []].append(change.type) }
        for (id, types) in seen {
            try check(
                types.count == 1 || types.sorted(by: { $0.rawValue < $1.rawValue }) == [.insert, .delete],
                "object \(id.primaryKey) reported as \(types)"
            )
        }
        for change in batch.objects {
            switch change.type {
            case .delete, .move:
                let path = try #require(change.indexPath)
                try check(path.section < sections.count && path.row < sections[path.section].ids.count, "old index path \(path) out of range")
                try check(sections[path.section].ids[path.row] == change.id, "old index path \(path) holds another object")
                try check(removed[path.section, default: []].insert(path.row).inserted, "two removals at \(path)")
                if change.type == .move {
                    try check(!deletedSections.contains(path.section), "move out of a deleted section")
                    try check(change.indexPath != change.newIndexPath, "a move to the same index path \(path)")
                }
            case .update:
                let path = try #require(change.indexPath)
                try check(path.section < sections.count && path.row < sections[path.section].ids.count, "update index path \(path) out of range")
                try check(sections[path.section].ids[path.row] == change.id, "update index path \(path) holds another object")
                try check(!deletedSections.contains(path.section), "update in a deleted section")
            case .insert:
                try check(change.indexPath == nil, "insert with an old index path")
            }
        }
        for change in batch.objects where change.type == .update {
            try check(!(removed[change.indexPath!.section]?.contains(change.indexPath!.row) ?? false), "update and delete of the same row")
        }
        var result: [(name: String, ids: [ManagedObjectID])] = []
        for (index, section) in sections.enumerated() where !deletedSections.contains(index) {
            let rows = removed[index] ?? []
            result.append((section.name, section.ids.enumerated().filter { !rows.contains($0.offset) }.map(\.element)))
        }
        for change in insertedSections {
            try check(change.index <= result.count, "section insert \(change.index) out of range")
            result.insert((change.name, []), at: change.index)
        }
        let insertedIndexes = Set(insertedSections.map(\.index))
        let inserts = batch.objects.filter { $0.type == .insert || $0.type == .move }.sorted { $0.newIndexPath! < $1.newIndexPath! }
        for change in inserts {
            let path = change.newIndexPath!
            try check(path.section < result.count && path.row <= result[path.section].ids.count, "new index path \(path) out of range")
            if change.type == .move { try check(!insertedIndexes.contains(path.section), "move into an inserted section") }
            result[path.section].ids.insert(change.id, at: path.row)
        }
        return SectionsModel(result)
    }
}
