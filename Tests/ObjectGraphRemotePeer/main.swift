// Another process on the same store, for ObjectGraph's multi-process tests (process B).
//
//   objectgraph-remote-peer PATH [--keep-history N]
//
// Opens the store at PATH (PeerModel, persistent history on; with --keep-history, at most N
// transactions kept) and reads commands from standard input, one per line. After each command
// whose changes are saved it prints "ok DESCRIPTION" and flushes; an error prints "error …".
//
//   insert NAME GROUP [OWNER]   a new item (owners and labels are created as needed)
//   rename NAME NEW             renames an item (it moves in a list sorted by name)
//   regroup NAME GROUP          files an item under another group (it changes section)
//   delete NAME                 deletes an item
//   label NAME LABEL            adds a label to an item (many-to-many)
//   unlabel NAME LABEL          removes a label from an item
//   own NAME OWNER              appends an item to an owner's ordered items
//   reverse OWNER               reverses an owner's ordered items
//   bump GROUP                  batch update: rank + 1 for every item of GROUP
//   purge GROUP                 batch delete: every item of GROUP
//   random SEED                 one of the above, picked and filled in from SEED
//   flood SIZE [SAVES]          saves SIZE items at a time in group "F", each save's items
//                               named "fN-i", 10 ms apart; prints "saved N" after each; after
//                               SAVES saves (default: no limit) it waits, saving nothing, until
//                               killed
//   quit                        exits 0
import Foundation
import ObjectGraph
import ObjectGraphPeerModel

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: objectgraph-remote-peer PATH [--keep-history N]\n".utf8))
    exit(2)
}
var options: [String: any Sendable] = [:]
if let flag = arguments.firstIndex(of: "--keep-history"), flag + 1 < arguments.count, let count = Int(arguments[flag + 1]) {
    options[PersistentStore.persistentHistoryMaximumCountOption] = count
}
let container = try PeerModel.open(URL(fileURLWithPath: arguments[1]), remoteChanges: false, options: options)
let context = container.newBackgroundContext()
context.name = "peer"
context.transactionAuthor = "peer"

/// A small deterministic generator (SplitMix64), so a seed names the same step in every run.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func fetch(_ entity: String, _ format: String? = nil, _ arguments: [any Sendable] = []) throws -> [ManagedObject] {
    let request = FetchRequest<ManagedObject>(entityName: entity)
    if let format { request.predicate = FetchPredicate(format: format, argumentArray: arguments) }
    request.sortDescriptors = [FetchSortDescriptor(key: "name", ascending: true)]
    return try context.fetch(request)
}

func named(_ entity: String, _ name: String, create: Bool) throws -> ManagedObject? {
    if let found = try fetch(entity, "name == %@", [name]).first { return found }
    guard create else { return nil }
    let object = try context.insertObject(entityName: entity)
    object.setValue(name, forKey: "name")
    return object
}

func item(_ name: String) throws -> ManagedObject {
    guard let item = try named("Item", name, create: false) else { throw PeerError("no item \(name)") }
    return item
}

struct PeerError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

func run(_ words: [String]) throws -> String {
    context.reset()
    switch (words.first ?? "", words.count) {
    case ("insert", 3), ("insert", 4):
        let object = try context.insertObject(entityName: "Item")
        object.setValue(words[1], forKey: "name")
        object.setValue(words[2], forKey: "group")
        if words.count == 4, let owner = try named("Owner", words[3], create: true) {
            try owner.addObject(object, toRelationship: "items")
        }
    case ("rename", 3): try item(words[1]).setValue(words[2], forKey: "name")
    case ("regroup", 3): try item(words[1]).setValue(words[2], forKey: "group")
    case ("delete", 2): context.delete(try item(words[1]))
    case ("label", 3): try item(words[1]).addObject(try named("Label", words[2], create: true)!, toRelationship: "labels")
    case ("unlabel", 3):
        if let label = try named("Label", words[2], create: false) { try item(words[1]).removeObject(label, fromRelationship: "labels") }
    case ("own", 3): try named("Owner", words[2], create: true)!.addObject(try item(words[1]), toRelationship: "items")
    case ("reverse", 2):
        guard let owner = try named("Owner", words[1], create: false) else { throw PeerError("no owner \(words[1])") }
        owner.setValue(Array(((owner.value(forKey: "items") as? [ManagedObject]) ?? []).reversed()), forKey: "items")
    case ("bump", 2):
        let request = BatchUpdateRequest(entityName: "Item")
        request.predicate = FetchPredicate(format: "group == %@", words[1])
        let ranks = try fetch("Item", "group == %@", [words[1]]).map { ($0.value(forKey: "rank") as? Int64) ?? 0 }
        // Every item of the group gets the next rank above the group's highest.
        request.propertiesToUpdate = ["rank": (ranks.max() ?? 0) + 1]
        _ = try context.execute(request)
        return "ok bump \(words[1])"
    case ("purge", 2):
        let request = FetchRequest<any FetchRequestResult>(entityName: "Item")
        request.predicate = FetchPredicate(format: "group == %@", words[1])
        _ = try context.execute(BatchDeleteRequest(fetchRequest: request))
        return "ok purge \(words[1])"
    case ("random", 2):
        return try run(randomStep(seed: UInt64(words[1]) ?? 0))
    default:
        throw PeerError("unknown command: \(words.joined(separator: " "))")
    }
    try context.save()
    return "ok " + words.joined(separator: " ")
}

/// One step picked from `seed`, over the items in the store now.
func randomStep(seed: UInt64) throws -> [String] {
    var random = SeededGenerator(state: seed)
    let items = try fetch("Item").compactMap { $0.value(forKey: "name") as? String }
    let kind = items.count < 4 ? 0 : Int.random(in: 0..<100, using: &random)
    let name = items.randomElement(using: &random) ?? ""
    let group = PeerModel.groups.randomElement(using: &random)!
    switch kind {
    case 0..<30: return ["insert", "i\(seed)", group] + (Bool.random(using: &random) ? [PeerModel.owners.randomElement(using: &random)!] : [])
    case 30..<40: return ["rename", name, "i\(seed)"]
    case 40..<50: return ["regroup", name, group]
    case 50..<60: return ["delete", name]
    case 60..<70: return ["label", name, PeerModel.labels.randomElement(using: &random)!]
    case 70..<77: return ["unlabel", name, PeerModel.labels.randomElement(using: &random)!]
    case 77..<85: return ["own", name, PeerModel.owners.randomElement(using: &random)!]
    case 85..<90: return ["reverse", PeerModel.owners.randomElement(using: &random)!]
    case 90..<96: return ["bump", group]
    default: return items.count > 30 ? ["purge", group] : ["bump", group]
    }
}

func flood(size: Int, saves: Int) throws -> Never {
    var number = 0
    while true {
        if number == saves {
            // A reader slower than the saves (a loaded machine) is not buried under them.
            while true { sleep(60) }
        }
        number += 1
        try context.performAndWait {
            for index in 0..<size {
                let object = try context.insertObject(entityName: "Item")
                object.setValue("f\(number)-\(index)", forKey: "name")
                object.setValue("F", forKey: "group")
            }
            try context.save()
            context.reset()
        }
        print("saved \(number)")
        fflush(nil)
        usleep(10_000)
    }
}

while let line = readLine() {
    let words = line.split(separator: " ").map(String.init)
    if words == ["quit"] { exit(0) }
    if words.first == "flood", words.count >= 2, let size = Int(words[1]) {
        try flood(size: size, saves: words.count > 2 ? Int(words[2]) ?? Int.max : Int.max)
    }
    do {
        let reply = try context.performAndWait { try run(words) }
        print(reply)
    } catch {
        print("error \(error)")
    }
    fflush(nil)
}
