import Foundation
import ObjectGraph
import TestSupport
import Testing

/// Random operations on a small graph against a reference that keeps it in plain arrays: the
/// object storage under relationships (unordered and ordered, both sides), undo, validation
/// failures, external-storage and transformable values, and objects deleted while faulted.
/// After every step every board and pin must read, through `value(forKey:)`, what the
/// reference says; after every save a fresh context must read what the reference stored.
@Suite("Object storage: relationships, undo, validation and stored values against a reference")
struct ObjectGraphPropertyTests {
    static func model() -> ManagedObjectModel {
        let blob = AttributeDescription("blob", .binaryData)
        blob.allowsExternalBinaryDataStorage = true
        return ManagedObjectModel {
            EntityDescription("Board") {
                AttributeDescription("title", .string)
                blob
                AttributeDescription("labels", .transformable, transformableType: [String].self)
                AttributeDescription("level", .integer64, optional: false, defaultValue: Int64(0)).range(0...100)
                RelationshipDescription("pins", to: "Pin", inverse: "board", toMany: true)
                RelationshipDescription("queue", to: "Pin", inverse: "queues", toMany: true, ordered: true)
            }
            EntityDescription("Pin") {
                AttributeDescription("name", .string)
                RelationshipDescription("board", to: "Board", inverse: "pins")
                RelationshipDescription("queues", to: "Board", inverse: "queue", toMany: true)
            }
        }
    }

    /// A board's attribute values, as the reference keeps them.
    struct BoardValues: Equatable {
        var title: String?
        var blob: Data?
        var labels: [String]?
        var level: Int64 = 0
    }

    /// The whole graph: pins by index (a pin undone out of existence or deleted is not alive).
    struct Graph: Equatable {
        var boards: [BoardValues]
        var pinBoard: [Int?] = []
        var queues: [[Int]]
        var alive: [Bool] = []

        func pins(of board: Int) -> Set<Int> {
            Set(pinBoard.indices.filter { alive[$0] && pinBoard[$0] == board })
        }

        /// This graph as it was before later pins were inserted: those pins do not exist.
        func padded(to count: Int) -> Graph {
            var graph = self
            while graph.alive.count < count {
                graph.alive.append(false)
                graph.pinBoard.append(nil)
            }
            return graph
        }

        mutating func removePin(_ pin: Int) {
            alive[pin] = false
            pinBoard[pin] = nil
            for board in queues.indices { queues[board].removeAll { $0 == pin } }
        }
    }

    static func randomBlob(_ random: inout SeededGenerator) -> Data? {
        switch Int.random(in: 0..<3, using: &random) {
        case 0: nil
        case 1: Data((0..<20).map { _ in UInt8.random(in: 0...255, using: &random) })
        // Large enough for a file of its own in the store's external data folder.
        default: Data(repeating: UInt8.random(in: 0...255, using: &random), count: 150_000 + Int.random(in: 0..<100, using: &random))
        }
    }

    static func randomLabels(_ random: inout SeededGenerator) -> [String]? {
        Bool.random(using: &random) ? nil : (0..<Int.random(in: 0...3, using: &random)).map { "l\($0)<\(Int.random(in: 0..<9, using: &random))>" }
    }

    @Test("every board and pin reads what the reference holds", arguments: 0..<6)
    func randomGraphOperations(seed: Int) throws {
        let stack = try TestStack(inMemory: false, model: Self.model())
        let context = stack.container.newBackgroundContext()
        var random = SeededGenerator(seed: UInt64(seed) &* 104_729 &+ 17)
        var log: [String] = []

        try context.performAndWait {
            let undoManager = UndoManager()
            undoManager.groupsByEvent = false
            context.undoManager = undoManager
            let boards = (0..<3).map { _ in EntityDescription.insertNewObject(forEntityName: "Board", into: context) }
            var pins: [ManagedObject] = []
            var current = Graph(boards: Array(repeating: BoardValues(), count: 3), queues: [[], [], []])
            try context.save()
            undoManager.removeAllActions()
            var stored = current
            var undoStack: [Graph] = []

            /// Runs one change as an undo group, remembering the graph before it.
            func change(_ description: String, _ body: () -> Void) {
                log.append(description)
                undoStack.append(current)
                undoManager.beginUndoGrouping()
                body()
                undoManager.endUndoGrouping()
            }
            func alivePin() -> Int? {
                pins.indices.filter { current.alive[$0] }.randomElement(using: &random)
            }

            // Only real changes are made: an undo group without changes is dropped, as
            // NSUndoManager drops it, so the next undo reaches the change before it.
            for step in 0..<150 {
                let b = Int.random(in: 0..<boards.count, using: &random)
                let board = boards[b]
                switch Int.random(in: 0..<13, using: &random) {
                case 0:
                    let title: String? = Bool.random(using: &random) ? nil : "t\(Int.random(in: 0..<20, using: &random))"
                    guard title != current.boards[b].title else { continue }
                    change("\(step): board \(b).title = \(title ?? "nil")") { board.setValue(title, forKey: "title") }
                    current.boards[b].title = title
                case 1:
                    let blob = Self.randomBlob(&random)
                    guard blob != current.boards[b].blob else { continue }
                    change("\(step): board \(b).blob = \(blob?.count ?? -1) bytes") { board.setValue(blob, forKey: "blob") }
                    current.boards[b].blob = blob
                case 2:
                    let labels = Self.randomLabels(&random)
                    guard labels != current.boards[b].labels else { continue }
                    change("\(step): board \(b).labels = \(labels ?? [])") { board.setValue(labels, forKey: "labels") }
                    current.boards[b].labels = labels
                case 3:
                    // Above 100 is invalid: the next save must refuse it and store nothing.
                    let level = Int64.random(in: 0...130, using: &random)
                    guard level != current.boards[b].level else { continue }
                    change("\(step): board \(b).level = \(level)") { board.setValue(level, forKey: "level") }
                    current.boards[b].level = level
                case 4:
                    guard let p = alivePin() else { continue }
                    let target: Int? = Bool.random(using: &random) ? nil : b
                    guard target != current.pinBoard[p] else { continue }
                    change("\(step): pin \(p).board = \(target.map(String.init) ?? "nil")") {
                        pins[p].setValue(target.map { boards[$0] }, forKey: "board")
                    }
                    current.pinBoard[p] = target
                case 5:
                    guard let p = alivePin() else { continue }
                    if current.pinBoard[p] == b {
                        change("\(step): board \(b).pins remove \(p)") { board.mutableSetValue(forKey: "pins").remove(pins[p]) }
                        current.pinBoard[p] = nil
                    } else {
                        change("\(step): board \(b).pins add \(p)") { board.mutableSetValue(forKey: "pins").add(pins[p]) }
                        current.pinBoard[p] = b
                    }
                case 6:
                    guard let p = alivePin() else { continue }
                    if current.queues[b].contains(p) {
                        change("\(step): board \(b).queue remove \(p)") { board.mutableOrderedSetValue(forKey: "queue").remove(pins[p]) }
                        current.queues[b].removeAll { $0 == p }
                    } else {
                        change("\(step): board \(b).queue append \(p)") { board.mutableOrderedSetValue(forKey: "queue").add(pins[p]) }
                        current.queues[b].append(p)
                    }
                case 7:
                    let reordered = Array(current.queues[b].reversed())
                    guard reordered != current.queues[b] else { continue }
                    change("\(step): board \(b).queue = \(reordered)") { board.setValue(reordered.map { pins[$0] }, forKey: "queue") }
                    current.queues[b] = reordered
                case 8:
                    let name = "p\(pins.count)"
                    change("\(step): insert pin \(pins.count)") {
                        let pin = EntityDescription.insertNewObject(forEntityName: "Pin", into: context)
                        pin.setValue(name, forKey: "name")
                        pins.append(pin)
                    }
                    current = current.padded(to: pins.count)
                    current.alive[pins.count - 1] = true
                case 9:
                    guard let p = alivePin() else { continue }
                    // With nothing unsaved, the pin is deleted while it is a fault.
                    let faulted = !context.hasChanges
                    if faulted { context.refreshAllObjects() }
                    #expect(!faulted || pins[p].isFault, "\(log.suffix(8).joined(separator: "\n"))")
                    change("\(step): delete pin \(p)\(faulted ? " (a fault)" : "")") { context.delete(pins[p]) }
                    current.removePin(p)
                case 10:
                    guard !undoStack.isEmpty else { continue }
                    log.append("\(step): undo")
                    undoManager.undo()
                    current = undoStack.removeLast().padded(to: pins.count)
                case 11:
                    log.append("\(step): rollback")
                    context.rollback()
                    current = stored.padded(to: pins.count)
                    undoStack = []
                default:
                    let invalid = current.boards.indices.filter { current.boards[$0].level > 100 }
                    log.append("\(step): save\(invalid.isEmpty ? "" : ", refused for levels of boards \(invalid)")")
                    if !invalid.isEmpty {
                        #expect(throws: (any Error).self, "\(log.suffix(8).joined(separator: "\n"))") { try context.save() }
                        change("\(step): levels of \(invalid) set to 100") {
                            for index in invalid { boards[index].setValue(Int64(100), forKey: "level") }
                        }
                        for index in invalid { current.boards[index].level = 100 }
                    }
                    try context.save()
                    stored = current
                    try Self.expectStored(stored, boards: boards, pins: pins, in: stack, trace: log.suffix(8).joined(separator: "\n"))
                }
                Self.expect(current, boards: boards, pins: pins, trace: log.suffix(10).joined(separator: "\n"))
            }
        }
    }

    /// Every board and every live pin of `context`'s objects reads `graph`.
    static func expect(_ graph: Graph, boards: [ManagedObject], pins: [ManagedObject], trace: String) {
        func index(of object: ManagedObject) -> Int { pins.firstIndex { $0 === object } ?? -1 }
        for (b, board) in boards.enumerated() {
            #expect(read(board) == graph.boards[b], "board \(b)\n\(trace)")
            let members = (board.value(forKey: "pins") as? Set<ManagedObject> ?? []).map(index)
            #expect(Set(members) == graph.pins(of: b), "board \(b).pins\n\(trace)")
            let queue = (board.value(forKey: "queue") as? [ManagedObject] ?? []).map(index)
            #expect(queue == graph.queues[b], "board \(b).queue\n\(trace)")
        }
        for (p, pin) in pins.enumerated() where graph.alive[p] {
            #expect(!pin.isDeleted, "pin \(p) deleted\n\(trace)")
            let board = (pin.value(forKey: "board") as? ManagedObject).map { owner in boards.firstIndex { $0 === owner } ?? -1 }
            #expect(board == graph.pinBoard[p], "pin \(p).board\n\(trace)")
            let queues = Set((pin.value(forKey: "queues") as? Set<ManagedObject> ?? []).map { owner in boards.firstIndex { $0 === owner } ?? -1 })
            #expect(queues == Set(graph.queues.indices.filter { graph.queues[$0].contains(p) }), "pin \(p).queues\n\(trace)")
        }
    }

    /// A fresh context on the same store reads `graph` (the saved one).
    static func expectStored(_ graph: Graph, boards: [ManagedObject], pins: [ManagedObject], in stack: TestStack, trace: String) throws {
        let boardIDs = boards.map(\.objectID)
        let pinIDs = pins.map(\.objectID)
        let fresh = stack.container.newBackgroundContext()
        try fresh.performAndWait {
            for (b, id) in boardIDs.enumerated() {
                let board = try fresh.existingObject(with: id)
                #expect(read(board) == graph.boards[b], "stored board \(b)\n\(trace)")
                let members = (board.value(forKey: "pins") as? Set<ManagedObject> ?? []).map { pinIDs.firstIndex(of: $0.objectID) ?? -1 }
                #expect(Set(members) == graph.pins(of: b), "stored board \(b).pins\n\(trace)")
                let queue = (board.value(forKey: "queue") as? [ManagedObject] ?? []).map { pinIDs.firstIndex(of: $0.objectID) ?? -1 }
                #expect(queue == graph.queues[b], "stored board \(b).queue\n\(trace)")
            }
            #expect(try fresh.count(for: FetchRequest<ManagedObject>(entityName: "Pin")) == graph.alive.filter { $0 }.count, "stored pins\n\(trace)")
        }
    }

    static func read(_ board: ManagedObject) -> BoardValues {
        BoardValues(
            title: board.value(forKey: "title") as? String,
            blob: board.value(forKey: "blob") as? Data,
            labels: board.value(forKey: "labels") as? [String],
            level: board.value(forKey: "level") as? Int64 ?? -1
        )
    }
}
