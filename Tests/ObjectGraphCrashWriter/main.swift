// A child process for ObjectGraph's crash-safety test: it writes to a store in a loop until it
// is killed, and checks a store a killed writer left behind.
//
//   objectgraph-crash-writer write PATH    saves forever; after each save returns, prints
//                                          "saved N" (N = the save's number) and flushes
//   objectgraph-crash-writer verify PATH REPORTED
//                                          checks the store (see `verify`); prints "ok LAST"
//                                          (LAST = the last save in the store) or each problem,
//                                          exiting 1
//   objectgraph-crash-writer tear PATH     removes one item of the last batch and its join
//                                          row with SQL, as a half-written save would leave
//                                          it (to show that `verify` sees one)
//
// Each save N, in one `save()`: inserts Batch N with `itemsPerBatch` Items, all in group
// N % 3 (a many-to-many join table); moves every item of batch N - 1 to group N % 3 and marks
// that batch `movedBy = N` (relationship edits and updates); every fourth save deletes batch
// N - 3 (cascading to its items and their join rows) and records it in a Deleted row. A save
// is half-written if some of these are in the store and others are not, which `verify` sees.
// After save N returns, a batch update request stamps every item of batch N with N: all of a
// batch's items carry the same stamp, and every batch but the last is stamped (a writer starts
// by stamping the last save, in case its predecessor was killed before it could).
import Foundation
import GRDB
import ObjectGraph

let itemsPerBatch = 5
let groupCount = 3

final class Batch: ManagedObject {
    @Managed var number: Int64
    @Managed var movedBy: Int64
    @Managed var items: Set<Item>
}

final class Item: ManagedObject {
    @Managed var save: Int64
    @Managed var index: Int64
    @Managed var stamp: Int64
    @Managed var batch: Batch?
    @Managed var groups: Set<Group>
}

final class Group: ManagedObject {
    @Managed var number: Int64
    @Managed var items: Set<Item>
}

final class Deleted: ManagedObject {
    @Managed var number: Int64
    @Managed var by: Int64
}

func container(at path: String) throws -> PersistentContainer {
    let model = ManagedObjectModel {
        EntityDescription("Batch", class: Batch.self) {
            AttributeDescription("number", .integer64, optional: false, defaultValue: 0)
            AttributeDescription("movedBy", .integer64, optional: false, defaultValue: 0)
            RelationshipDescription("items", to: "Item", inverse: "batch", toMany: true, deleteRule: .cascade)
        }
        EntityDescription("Item", class: Item.self) {
            AttributeDescription("save", .integer64, optional: false, defaultValue: 0)
            AttributeDescription("index", .integer64, optional: false, defaultValue: 0)
            AttributeDescription("stamp", .integer64, optional: false, defaultValue: 0)
            RelationshipDescription("batch", to: "Batch", inverse: "items")
            RelationshipDescription("groups", to: "Group", inverse: "items", toMany: true)
        }
        EntityDescription("Group", class: Group.self) {
            AttributeDescription("number", .integer64, optional: false, defaultValue: 0)
            RelationshipDescription("items", to: "Item", inverse: "groups", toMany: true)
        }
        EntityDescription("Deleted", class: Deleted.self) {
            AttributeDescription("number", .integer64, optional: false, defaultValue: 0)
            AttributeDescription("by", .integer64, optional: false, defaultValue: 0)
        }
    }
    let container = PersistentContainer(name: "CrashWriter", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: path))]
    var failure: (any Error)?
    container.loadPersistentStores { _, error in failure = error }
    if let failure { throw failure }
    return container
}

func fetch<T: ManagedObject>(
    _ type: T.Type,
    _ entity: String,
    in context: ManagedObjectContext,
    _ format: String? = nil,
    _ arguments: [Any?] = []
) throws -> [T] {
    let request = FetchRequest<T>(entityName: entity)
    if let format { request.predicate = FetchPredicate(format: format, argumentArray: arguments) }
    return try context.fetch(request)
}

/// The number of the last save in the store: the highest batch or deletion number.
func lastSave(in context: ManagedObjectContext) throws -> Int64 {
    let batches = try fetch(Batch.self, "Batch", in: context).map(\.number)
    let deleted = try fetch(Deleted.self, "Deleted", in: context).flatMap { [$0.number, $0.by] }
    return (batches + deleted).max() ?? 0
}

func write(path: String) throws {
    let context = try container(at: path).newBackgroundContext()
    try context.performAndWait {
        var groups = try fetch(Group.self, "Group", in: context).sorted { $0.number < $1.number }
        var number = try lastSave(in: context)
        // A writer killed between a save and its stamp: stamp it now.
        if number > 0 { try stamp(number, in: context) }
        while true {
            number += 1
            if groups.isEmpty {
                groups = (0..<groupCount).map { index in
                    let group = Group(context: context)
                    group.number = Int64(index)
                    return group
                }
            }
            let group = groups[Int(number) % groupCount]
            let batch = Batch(context: context)
            batch.number = number
            for index in 0..<itemsPerBatch {
                let item = Item(context: context)
                item.save = number
                item.index = Int64(index)
                item.batch = batch
                item.groups = [group]
            }
            if let previous = try fetch(Batch.self, "Batch", in: context, "number == %@", [number - 1]).first {
                previous.movedBy = number
                for item in previous.items { item.groups = [group] }
            }
            if number % 4 == 0, let old = try fetch(Batch.self, "Batch", in: context, "number == %@", [number - 3]).first {
                context.delete(old)
                let deleted = Deleted(context: context)
                deleted.number = number - 3
                deleted.by = number
            }
            try context.save()
            FileHandle.standardOutput.write(Data("saved \(number)\n".utf8))
            try stamp(number, in: context)
            context.reset()
            groups = try fetch(Group.self, "Group", in: context).sorted { $0.number < $1.number }
        }
    }
}

/// Stamps every item of batch `number` with `number`, with one batch update request.
func stamp(_ number: Int64, in context: ManagedObjectContext) throws {
    let request = BatchUpdateRequest(entityName: "Item")
    request.predicate = FetchPredicate(format: "save == %@", number)
    request.propertiesToUpdate = ["stamp": number]
    _ = try context.execute(request)
}

/// The problems of the store at `path`, which a writer killed after reporting save
/// `reported` left behind; and the last save in it.
func verify(path: String, reported: Int64) throws -> (problems: [String], last: Int64) {
    var problems: [String] = []
    // SQLite's own check, and the join and foreign-key rows, in SQL.
    let queue = try DatabaseQueue(path: path)
    try queue.read { db in
        let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        if integrity != ["ok"] { problems.append("integrity_check: \(integrity.joined(separator: "; "))") }
        let joins = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z^_%ITEMS' ESCAPE '^'")
        guard joins.count == 1 else {
            problems.append("expected one join table for Group.items, found \(joins)")
            return
        }
        // Core Data's layout: Group (entity 3) names it, Z_3ITEMS (Z_3GROUPS, Z_4ITEMS).
        let join = joins[0]
        let orphans = try Int.fetchOne(
            db,
            sql: """
                SELECT COUNT(*) FROM \(join)
                WHERE Z_3GROUPS NOT IN (SELECT Z_PK FROM ZGROUP) OR Z_4ITEMS NOT IN (SELECT Z_PK FROM ZITEM)
                """
        )
        if orphans != 0 { problems.append("\(orphans ?? -1) join rows of \(join) point at missing rows") }
        let dangling = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZITEM WHERE ZBATCH IS NULL OR ZBATCH NOT IN (SELECT Z_PK FROM ZBATCH)")
        if dangling != 0 { problems.append("\(dangling ?? -1) items without an existing batch") }
    }
    // Through ObjectGraph: both sides of every relationship, and each save whole or absent.
    let context = try container(at: path).newBackgroundContext()
    let last = try context.performAndWait {
        let last = try lastSave(in: context)
        if last < reported { problems.append("save \(reported) returned before the kill but the store ends at save \(last)") }
        let batches = Dictionary(grouping: try fetch(Batch.self, "Batch", in: context), by: \.number)
        let deleted = Dictionary(grouping: try fetch(Deleted.self, "Deleted", in: context), by: \.number)
        let groups = try fetch(Group.self, "Group", in: context)
        if last > 0 && groups.count != groupCount { problems.append("\(groups.count) groups, not \(groupCount)") }
        for number in Int64(1)...max(last, 1) where last > 0 {
            let batch = batches[number] ?? []
            let deletion = deleted[number] ?? []
            if batch.count + deletion.count != 1 {
                problems.append("save \(number): \(batch.count) batches and \(deletion.count) deletions (want exactly one)")
                continue
            }
            if let deletion = deletion.first, deletion.by != number + 3 || deletion.by % 4 != 0 {
                problems.append("batch \(number) deleted by save \(deletion.by)")
            }
            if number % 4 == 1 && number + 3 <= last && deletion.isEmpty {
                problems.append("batch \(number) still there after save \(number + 3) that deletes it")
            }
            guard let batch = batch.first else { continue }
            let wantMoved = number < last ? number + 1 : 0
            if batch.movedBy != wantMoved { problems.append("batch \(number) movedBy \(batch.movedBy), want \(wantMoved)") }
            let items = batch.items
            if items.count != itemsPerBatch || Set(items.map(\.index)).count != itemsPerBatch {
                problems.append("batch \(number) has \(items.count) items")
            }
            let stamps = Set(items.map(\.stamp))
            if stamps.count > 1 { problems.append("batch \(number)'s items carry stamps \(stamps.sorted()): a batch update was half-written") }
            if number < last && stamps != [number] { problems.append("batch \(number) stamped \(stamps.sorted()), want [\(number)]") }
            let groupNumber = (batch.movedBy == 0 ? number : batch.movedBy) % Int64(groupCount)
            for item in items {
                if item.save != number || item.batch !== batch { problems.append("item \(item.objectID) of batch \(number) says save \(item.save)") }
                let itemGroups = item.groups.map(\.number)
                if itemGroups != [groupNumber] {
                    problems.append("item \(item.index) of batch \(number) in groups \(itemGroups), want [\(groupNumber)]")
                }
            }
        }
        for group in groups {
            for item in group.items where !item.groups.contains(group) {
                problems.append("group \(group.number) lists item \(item.objectID), whose groups do not list the group")
            }
        }
        return last
    }
    return (problems, last)
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch (arguments.first, arguments.count) {
    case ("write", 2):
        try write(path: arguments[1])
    case ("tear", 2):
        let queue = try DatabaseQueue(path: arguments[1])
        try queue.write { db in
            let item = try Int64.fetchOne(db, sql: "SELECT MAX(Z_PK) FROM ZITEM") ?? 0
            for join in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z^_%ITEMS' ESCAPE '^'") {
                try db.execute(sql: "DELETE FROM \(join) WHERE Z_4ITEMS = ?", arguments: [item])
            }
            try db.execute(sql: "DELETE FROM ZITEM WHERE Z_PK = ?", arguments: [item])
        }
    case ("verify", 3):
        let (problems, last) = try verify(path: arguments[1], reported: Int64(arguments[2]) ?? 0)
        if problems.isEmpty {
            print("ok \(last)")
        } else {
            print(problems.prefix(20).joined(separator: "\n"))
            exit(1)
        }
    default:
        FileHandle.standardError.write(Data("usage: objectgraph-crash-writer write PATH | verify PATH REPORTED | tear PATH\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("objectgraph-crash-writer: \(error)\n".utf8))
    exit(1)
}
