import Foundation

/// An `NSKeyedArchiver` archive read as plain values: its `$objects`, each object's class
/// name, and the Foundation collections it encodes (`NSArray`, `NSSet`, `NSDictionary` and
/// Core Data's `NSKnownKeysDictionary1`), following UIDs.
struct KeyedArchive {
    typealias Value = BinaryPropertyList.Value

    private let objects: [Value]
    /// The archive's root object (`$top.root`).
    let root: Value

    /// Reads the archive in `data`.
    ///
    /// - Throws: ``BinaryPropertyList/Malformed`` when `data` is not a keyed archive.
    init(_ data: Data) throws {
        guard case .dictionary(let archive) = try BinaryPropertyList.parse(data),
            case .string(let archiver)? = archive["$archiver"], archiver == "NSKeyedArchiver",
            case .array(let objects)? = archive["$objects"],
            case .dictionary(let top)? = archive["$top"], let root = top["root"]
        else { throw BinaryPropertyList.Malformed(reason: "not an NSKeyedArchiver archive") }
        self.objects = objects
        self.root = root
    }

    /// The object `value` refers to (`value` itself when it is no reference); `.null` for
    /// `$null`.
    func resolve(_ value: Value?) -> Value {
        guard let value else { return .null }
        if case .uid(let index) = value {
            guard index > 0, index < objects.count else { return .null }
            if case .string("$null") = objects[index] { return .null }
            return objects[index]
        }
        return value
    }

    /// The fields of the object `value` refers to; empty for a non-object.
    func fields(_ value: Value?) -> [String: Value] {
        if case .dictionary(let fields) = resolve(value) { return fields }
        return [:]
    }

    /// The class name of the object `value` refers to.
    func className(_ value: Value?) -> String? {
        guard case .dictionary(let description) = resolve(fields(value)["$class"]), case .string(let name)? = description["$classname"]
        else { return nil }
        return name
    }

    /// The string `value` refers to (an `NSString`, or an `NSMutableString`'s `NS.string`).
    func string(_ value: Value?) -> String? {
        switch resolve(value) {
        case .string(let string): return string
        case .dictionary(let fields): return fields["NS.string"].flatMap { string($0) }
        default: return nil
        }
    }

    /// The integer `value` holds.
    func int(_ value: Value?) -> Int? {
        switch resolve(value) {
        case .int(let int): return Int(int)
        case .real(let real): return Int(exactly: real)
        case .bool(let bool): return bool ? 1 : 0
        default: return nil
        }
    }

    /// The boolean `value` holds (`false` when absent, as an archive leaves out false flags).
    func bool(_ value: Value?) -> Bool {
        switch resolve(value) {
        case .bool(let bool): return bool
        case .int(let int): return int != 0
        default: return false
        }
    }

    /// The elements of the `NSArray`, `NSSet` or `NSOrderedSet` `value` refers to.
    func array(_ value: Value?) -> [Value] {
        if case .array(let items)? = fields(value)["NS.objects"] { return items }
        return []
    }

    /// The entries of the dictionary `value` refers to, in the archive's order: an
    /// `NSDictionary` (`NS.keys`, `NS.objects`) or an `NSKnownKeysDictionary1` (its mapping
    /// strategy's keys and its values).
    func dictionary(_ value: Value?) -> [(key: String, value: Value)] {
        let object = fields(value)
        let keys: [Value]
        let values: [Value]
        if let mapping = object["searchMapping"] {
            keys = array(fields(mapping)["keys"])
            values = array(object["values"])
        } else if case .array(let storedKeys)? = object["NS.keys"], case .array(let storedValues)? = object["NS.objects"] {
            keys = storedKeys
            values = storedValues
        } else {
            return []
        }
        return zip(keys, values).compactMap { key, value in string(key).map { ($0, value) } }
    }
}
