// A child process for ObjectGraph's memory tests: its peak resident memory (VmHWM) is the
// walk's alone.
//
//   objectgraph-memory-walk seed PATH COUNT   creates a store of COUNT items (SQL, fast)
//   objectgraph-memory-walk walk PATH BATCH   walks every item with fetchBatched, then prints
//                                             "VmHWM-kB count checksum"
//   objectgraph-memory-walk fetch PATH BATCH  the same with fetch and fetchBatchSize: an array
//                                             holding a fault per item, filled a batch at a time
import Foundation
import GRDB
import ObjectGraph

final class Item: ManagedObject {
    @Managed var number: Int64
    @Managed var name: String?
}

func container(at path: String) throws -> PersistentContainer {
    let model = ManagedObjectModel {
        EntityDescription("Item", class: Item.self) {
            AttributeDescription("number", .integer64, optional: false, defaultValue: 0)
            AttributeDescription("name", .string)
        }
    }
    let container = PersistentContainer(name: "MemoryWalk", managedObjectModel: model)
    container.persistentStoreDescriptions = [PersistentStoreDescription(url: URL(fileURLWithPath: path))]
    var failure: (any Error)?
    container.loadPersistentStores { _, error in failure = error }
    if let failure { throw failure }
    return container
}

func peakKilobytes() -> Int {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "") ?? -1
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 3, let number = Int(arguments[arguments.startIndex + 2]) else {
    FileHandle.standardError.write(Data("usage: objectgraph-memory-walk seed|walk|fetch PATH COUNT|BATCH\n".utf8))
    exit(2)
}
let path = arguments[arguments.startIndex + 1]
do {
    switch arguments.first {
    case "seed":
        _ = try container(at: path)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(
                sql: """
                    WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ?)
                    INSERT INTO ZITEM (Z_PK, Z_ENT, Z_OPT, ZNUMBER, ZNAME) SELECT x, 1, 1, x, 'item ' || x FROM c
                    """,
                arguments: [number]
            )
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_NAME = 'Item'", arguments: [number])
        }
    case "walk", "fetch":
        let batched = arguments.first == "walk"
        let context = try container(at: path).newBackgroundContext()
        let (count, checksum) = try context.performAndWait {
            let request = FetchRequest<Item>(entityName: "Item")
            request.sortDescriptors = [FetchSortDescriptor(key: "number", ascending: true)]
            request.fetchBatchSize = number
            var count = 0
            var checksum: Int64 = 0
            // `fetch` keeps every item (a fault once its batch is behind) until the walk ends.
            let items: any Collection<Item> = batched ? try context.fetchBatched(request) : try context.fetch(request)
            for item in items {
                count += 1
                checksum &+= item.number &+ Int64(item.name?.utf8.count ?? 0)
            }
            return (count, checksum)
        }
        print(peakKilobytes(), count, checksum)
    default:
        FileHandle.standardError.write(Data("unknown mode \(arguments.first ?? "")\n".utf8))
        exit(2)
    }
} catch {
    FileHandle.standardError.write(Data("objectgraph-memory-walk: \(error)\n".utf8))
    exit(1)
}
