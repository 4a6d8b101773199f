import Foundation

/// How a fetch orders its results by one key path, as Core Data's `NSSortDescriptor`.
///
/// The key may go through to-one relationships (`"photographer.name"`). Ties are broken by the
/// next descriptor, and finally by primary key, in SQL and in memory alike.
public struct FetchSortDescriptor: Sendable, Hashable, CustomStringConvertible {
    /// How strings compare, standing in for Core Data's `selector:` argument (Linux has no
    /// Objective-C selectors): `#selector(NSString.localizedStandardCompare(_:))` becomes
    /// `.localizedStandardCompare`.
    public struct Selector: Sendable, Hashable, CustomStringConvertible {
        let name: String
        /// `compare:` — Unicode scalar order (the default).
        public static let compare = Selector(name: "compare:")
        /// `caseInsensitiveCompare:` — after Unicode case folding.
        public static let caseInsensitiveCompare = Selector(name: "caseInsensitiveCompare:")
        /// `localizedCompare:` — the current locale's collation.
        public static let localizedCompare = Selector(name: "localizedCompare:")
        /// `localizedCaseInsensitiveCompare:` — the locale's collation, ignoring case.
        public static let localizedCaseInsensitiveCompare = Selector(name: "localizedCaseInsensitiveCompare:")
        /// `localizedStandardCompare:` — Finder-like: ignores case, orders digits numerically.
        public static let localizedStandardCompare = Selector(name: "localizedStandardCompare:")
        /// A readable summary, for logs and debugging.
        public var description: String { name }
    }

    /// The key path sorted by.
    public let key: String?
    /// Whether smaller values come first.
    public let ascending: Bool
    /// How strings compare.
    public let selector: Selector

    /// Sorts by `key`, ascending or descending, comparing strings with `compare:`.
    public init(key: String?, ascending: Bool) {
        self.init(key: key, ascending: ascending, selector: .compare)
    }

    /// Sorts by `key`, comparing strings as `selector` does.
    public init(key: String?, ascending: Bool, selector: Selector) {
        self.key = key
        self.ascending = ascending
        self.selector = selector
    }

    /// Sorts by a typed key path, as Core Data's `NSSortDescriptor(keyPath:ascending:)`.
    public init<Root: ManagedObject, Value>(keyPath: KeyPath<Root, Value>, ascending: Bool) {
        self.init(key: KeyPathRecorder.name(of: keyPath), ascending: ascending, selector: .compare)
    }

    /// The same descriptor in the opposite direction.
    public var reversedSortDescriptor: FetchSortDescriptor {
        FetchSortDescriptor(key: key, ascending: !ascending, selector: selector)
    }

    /// A readable summary, for logs and debugging.
    public var description: String { "(\(key ?? "SELF"), \(ascending ? "ascending" : "descending"), \(selector))" }

    /// Compares two values as this descriptor orders them (direction included).
    func compare(_ lhs: Value, _ rhs: Value) -> ComparisonResult {
        let result: ComparisonResult
        if case .string(let a) = lhs, case .string(let b) = rhs, selector != .compare {
            result = Self.compareStrings(a, b, selector)
        } else {
            result = Value.sortCompare(lhs, rhs) ?? .orderedSame
        }
        guard !ascending else { return result }
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    /// The string comparison behind each selector; SQLite collations call this too.
    static func compareStrings(_ a: String, _ b: String, _ selector: Selector) -> ComparisonResult {
        switch selector {
        case .caseInsensitiveCompare:
            let x = StringComparison.fold(a, .caseInsensitive)
            let y = StringComparison.fold(b, .caseInsensitive)
            return Value.sortCompare(.string(x), .string(y)) ?? .orderedSame
        case .localizedCompare:
            return LocalizedCollation.compare(a, b, options: [])
        case .localizedCaseInsensitiveCompare:
            return LocalizedCollation.compare(a, b, options: [.caseInsensitive])
        case .localizedStandardCompare:
            return LocalizedCollation.compare(a, b, options: [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering])
        default:
            return Value.sortCompare(.string(a), .string(b)) ?? .orderedSame
        }
    }
}
