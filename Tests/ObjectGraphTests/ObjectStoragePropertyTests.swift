import Foundation
import ObjectGraph
import TestSupport
import Testing

final class Gauge: ManagedObject {
    @Managed var count: Int64
    @Managed var label: String?
    @Managed var ratio: Double
    @Managed var flag: Bool
    @Managed var when: Date?
}

/// Random operations on objects against a reference that keeps their values in dictionaries:
/// after every step, every access path — typed getters, `value(forKey:)`, `committedValues`,
/// and a fresh context's fetch — must read what the reference says.
@Suite("Object storage: random operations against a reference")
struct ObjectStoragePropertyTests {
    static let keys = ["count", "label", "ratio", "flag", "when"]

    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Gauge", class: Gauge.self) {
                AttributeDescription("count", .integer64, optional: false, defaultValue: Int64(0))
                AttributeDescription("label", .string)
                AttributeDescription("ratio", .double, optional: false, defaultValue: 0.0)
                AttributeDescription("flag", .boolean, optional: false, defaultValue: false)
                AttributeDescription("when", .date)
            }
        }
    }

    /// A stored value in a form every access path can be compared with.
    enum Field: Equatable, CustomStringConvertible {
        case int(Int64), text(String?), real(Double), bool(Bool), date(Date?)

        var description: String {
            switch self {
            case .int(let value): "\(value)"
            case .text(let value): value.map { "'\($0)'" } ?? "nil"
            case .real(let value): "\(value)"
            case .bool(let value): "\(value)"
            case .date(let value): value.map { "\($0.timeIntervalSinceReferenceDate)" } ?? "nil"
            }
        }

        /// The field of `key` as `value(forKey:)` or a dictionary gives it.
        init(key: String, any value: Any?) {
            switch key {
            case "count": self = .int(value as? Int64 ?? -1)
            case "label": self = .text(value as? String)
            case "ratio": self = .real(value as? Double ?? .nan)
            case "flag": self = .bool(value as? Bool ?? false)
            default: self = .date(value as? Date)
            }
        }

        var any: Any? {
            switch self {
            case .int(let value): value
            case .text(let value): value
            case .real(let value): value
            case .bool(let value): value
            case .date(let value): value
            }
        }
    }

    typealias Values = [String: Field]

    static let defaults: Values = ["count": .int(0), "label": .text(nil), "ratio": .real(0), "flag": .bool(false), "when": .date(nil)]

    static func randomField(_ key: String, _ random: inout SeededGenerator) -> Field {
        switch key {
        case "count": .int(Int64.random(in: -1_000...1_000, using: &random))
        case "label": Bool.random(using: &random) ? .text(nil) : .text("l\(Int.random(in: 0..<50, using: &random))")
        case "ratio": .real(Double(Int.random(in: -100...100, using: &random)) / 4)
        case "flag": .bool(Bool.random(using: &random))
        default: Bool.random(using: &random) ? .date(nil) : .date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...1_000_000, using: &random))))
        }
    }

    static func setTyped(_ gauge: Gauge, _ field: Field) {
        switch field {
        case .int(let value): gauge.count = value
        case .text(let value): gauge.label = value
        case .real(let value): gauge.ratio = value
        case .bool(let value): gauge.flag = value
        case .date(let value): gauge.when = value
        }
    }

    static func typedField(_ gauge: Gauge, _ key: String) -> Field {
        switch key {
        case "count": .int(gauge.count)
        case "label": .text(gauge.label)
        case "ratio": .real(gauge.ratio)
        case "flag": .bool(gauge.flag)
        default: .date(gauge.when)
        }
    }

    @Test("every access path reads what the reference holds", arguments: 0..<8)
    func randomOperations(seed: Int) throws {
        let stack = try TestStack(inMemory: false, model: Self.model())
        let context = stack.container.newBackgroundContext()
        let other = stack.container.newBackgroundContext()
        var random = SeededGenerator(seed: UInt64(seed) &* 7919 &+ 1)
        var log: [String] = []

        try context.performAndWait {
            // The reference: values in the store, and in the context with the keys changed there.
            var stored: [Values] = []
            var current: [Values] = []
            var changed: [Set<String>] = []
            var gauges: [Gauge] = []
            for _ in 0..<4 {
                gauges.append(Gauge(context: context))
                current.append(Self.defaults)
                stored.append(Self.defaults)
                changed.append([])
            }
            try context.save()
            let ids = gauges.map(\.objectID)

            for step in 0..<120 {
                let index = Int.random(in: 0..<gauges.count, using: &random)
                let gauge = gauges[index]
                let key = Self.keys.randomElement(using: &random)!
                switch Int.random(in: 0..<9, using: &random) {
                case 0, 1:
                    let field = Self.randomField(key, &random)
                    log.append("\(step): typed \(index).\(key) = \(field)")
                    Self.setTyped(gauge, field)
                    current[index][key] = field
                    // Set back to its committed value, a key is no longer changed (as in Core Data).
                    if field == stored[index][key] { changed[index].remove(key) } else { changed[index].insert(key) }
                case 2, 3:
                    let field = Self.randomField(key, &random)
                    log.append("\(step): setValue \(index).\(key) = \(field)")
                    gauge.setValue(field.any, forKey: key)
                    current[index][key] = field
                    // Set back to its committed value, a key is no longer changed (as in Core Data).
                    if field == stored[index][key] { changed[index].remove(key) } else { changed[index].insert(key) }
                case 4:
                    log.append("\(step): save")
                    try context.save()
                    stored = current
                    changed = changed.map { _ in [] }
                case 5:
                    log.append("\(step): rollback")
                    context.rollback()
                    current = stored
                    changed = changed.map { _ in [] }
                case 6:
                    log.append("\(step): refresh \(index), discarding changes (a fault)")
                    context.refresh(gauge, mergeChanges: false)
                    #expect(gauge.isFault, "\(log.joined(separator: "\n"))")
                    current[index] = stored[index]
                    changed[index] = []
                case 7:
                    // Another context's save, merged by a refresh that keeps this one's changes.
                    let field = Self.randomField(key, &random)
                    log.append("\(step): another context saves \(index).\(key) = \(field), refresh merging")
                    try other.performAndWait {
                        let copy = try #require(try other.existingObject(with: ids[index]) as? Gauge)
                        other.refresh(copy, mergeChanges: false)
                        Self.setTyped(copy, field)
                        try other.save()
                    }
                    stored[index][key] = field
                    context.refresh(gauge, mergeChanges: true)
                    for key in Self.keys where !changed[index].contains(key) { current[index][key] = stored[index][key] }
                default:
                    log.append("\(step): turn every object into a fault keeping changes")
                    for gauge in gauges { context.refresh(gauge, mergeChanges: true) }
                }

                let trace = log.suffix(12).joined(separator: "\n")
                for (index, gauge) in gauges.enumerated() {
                    for key in Self.keys {
                        let expected = current[index][key]!
                        #expect(Self.typedField(gauge, key) == expected, "typed \(index).\(key)\n\(trace)")
                        #expect(Field(key: key, any: gauge.value(forKey: key)) == expected, "value(forKey:) \(index).\(key)\n\(trace)")
                    }
                    let committed = gauge.committedValues(forKeys: Self.keys)
                    for key in Self.keys {
                        let value = committed[key].flatMap { $0 is NSNull ? nil : $0 }
                        #expect(Field(key: key, any: value) == stored[index][key]!, "committedValues \(index).\(key)\n\(trace)")
                    }
                }
            }

            // A fresh context reads what was saved.
            try context.save()
            let fresh = stack.container.newBackgroundContext()
            try fresh.performAndWait {
                for (index, id) in ids.enumerated() {
                    let gauge = try #require(try fresh.existingObject(with: id) as? Gauge)
                    for key in Self.keys {
                        #expect(Self.typedField(gauge, key) == current[index][key]!, "fresh \(index).\(key)")
                    }
                }
            }
            // A batched fetch's faults (batches of three: two batches) fill with it too, each batch
            // when one of its objects is first read.
            let batched = stack.container.newBackgroundContext()
            try batched.performAndWait {
                let request = FetchRequest<Gauge>(entityName: "Gauge")
                request.fetchBatchSize = 3
                let fetched = try batched.fetch(request)
                #expect(fetched.count == ids.count && fetched.allSatisfy(\.isFault))
                for gauge in fetched.reversed() {
                    let index = try #require(ids.firstIndex(of: gauge.objectID))
                    for key in Self.keys {
                        #expect(Self.typedField(gauge, key) == current[index][key]!, "batched \(index).\(key)")
                    }
                }
            }
        }
    }
}
