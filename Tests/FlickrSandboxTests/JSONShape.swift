import Foundation

/// The structure of a JSON value: objects by key, arrays by element, leaves by type — what
/// must match between Flickr's documented answers and the sandbox's.
indirect enum JSONShape: Equatable, CustomStringConvertible {
    case string, number, null
    case array(JSONShape?)
    case object([String: JSONShape])

    init(_ value: Any) {
        switch value {
        case is String: self = .string
        case is Int, is Double, is NSNumber: self = .number
        case let array as [Any]: self = .array(array.first.map(JSONShape.init))
        case let object as [String: Any]: self = .object(object.mapValues(JSONShape.init))
        default: self = .null
        }
    }

    init(json text: String) throws {
        self.init(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
    }

    /// The differences where `self` (a documented example) is not matched by `actual`:
    /// every key of the example must exist in `actual` with the same shape; `actual` may have
    /// more keys (extras the example did not ask for).
    func mismatches(in actual: JSONShape, path: String = "$") -> [String] {
        switch (self, actual) {
        case (.object(let expected), .object(let found)):
            return expected.keys.sorted().flatMap { key -> [String] in
                guard let value = found[key] else { return ["\(path).\(key) is missing"] }
                return expected[key]!.mismatches(in: value, path: "\(path).\(key)")
            }
        case (.array(let expected?), .array(let found?)):
            return expected.mismatches(in: found, path: "\(path)[0]")
        case (.array, .array):
            return []
        default:
            return self == actual ? [] : ["\(path) is \(actual), documented as \(self)"]
        }
    }

    var description: String {
        switch self {
        case .string: "string"
        case .number: "number"
        case .null: "null"
        case .array: "array"
        case .object: "object"
        }
    }
}
