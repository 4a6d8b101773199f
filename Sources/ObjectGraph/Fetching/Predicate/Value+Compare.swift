package import Foundation

extension Value {
    /// The order of two values under NSPredicate's rules, shared by the in-memory evaluator
    /// and the SQL functions; `nil` when they do not compare.
    ///
    /// - Either side `.null`: `nil`.
    /// - Numbers (`.bool` as 0/1, `.int`, `.double`, `.decimal`) compare numerically: two
    ///   ints exactly; as `Decimal` if either is a decimal; an int and a double exactly (as
    ///   SQLite does); two doubles as doubles. NaN: `nil`.
    /// - Strings: ``StringComparison/compare(_:_:_:)`` with `options`.
    /// - Dates by time; data by bytes (a prefix first); UUIDs by their 16 bytes; URLs by
    ///   `absoluteString` (binary, `options` ignored).
    /// - Object IDs: `.orderedSame` when equal, otherwise `nil` (they have no order; the
    ///   evaluator also refuses `<`, `<=`, `>`, `>=` on them).
    /// - Arrays: `.orderedSame` when of equal length and equal element by element, else `nil`.
    /// - Any other pair of kinds: `nil`.
    package static func compare(_ a: Value, _ b: Value, options: ComparisonOptions) -> ComparisonResult? {
        switch (a, b) {
        case (.null, _), (_, .null): return nil
        case (.string(let x), .string(let y)): return StringComparison.compare(x, y, options)
        case (.date(let x), .date(let y)):
            return order(x.timeIntervalSinceReferenceDate, y.timeIntervalSinceReferenceDate)
        case (.data(let x), .data(let y)): return order(bytes: Array(x), Array(y))
        case (.uuid(let x), .uuid(let y)): return order(bytes: bytes(of: x), bytes(of: y))
        case (.url(let x), .url(let y)): return StringComparison.compare(x.absoluteString, y.absoluteString, [])
        case (.objectID(let x), .objectID(let y)): return x == y ? .orderedSame : nil
        case (.array(let x), .array(let y)):
            guard x.count == y.count else { return nil }
            for (p, q) in zip(x, y) where compare(p, q, options: options) != .orderedSame { return nil }
            return .orderedSame
        default: return compareNumbers(a, b)
        }
    }

    /// Whether this is a number for comparison and aggregation (`.bool`, `.int`, `.double`,
    /// `.decimal`).
    package var isNumber: Bool {
        switch self {
        case .bool, .int, .double, .decimal: return true
        default: return false
        }
    }

    private static func compareNumbers(_ a: Value, _ b: Value) -> ComparisonResult? {
        guard a.isNumber, b.isNumber else { return nil }
        if let x = exactInteger(a), let y = exactInteger(b) { return order(x, y) }
        if case .decimal = a { return decimalOrder(a, b) }
        if case .decimal = b { return decimalOrder(a, b) }
        // An integer and a double compare exactly, as SQLite compares them: converting the
        // integer to a double would make 2^53 + 1 equal 2^53, and Int64.max equal 2^63.
        if let x = exactInteger(a), case .double(let y) = b { return compare(x, y) }
        if case .double(let x) = a, let y = exactInteger(b) { return compare(y, x).map(reversed) }
        guard let x = PredicateArgument.double(a), let y = PredicateArgument.double(b) else { return nil }
        return order(x, y)
    }

    /// The exact order of an integer and a double; `nil` for NaN.
    package static func compare(_ integer: Int64, _ double: Double) -> ComparisonResult? {
        if double.isNaN { return nil }
        // 2^63 is exactly representable; every double at or beyond it exceeds every Int64.
        if double >= 9_223_372_036_854_775_808.0 { return .orderedAscending }
        if double < -9_223_372_036_854_775_808.0 { return .orderedDescending }
        let whole = double.rounded(.towardZero)
        let truncated = Int64(whole)
        if integer != truncated { return integer < truncated ? .orderedAscending : .orderedDescending }
        let fraction = double - whole
        return fraction > 0 ? .orderedAscending : fraction < 0 ? .orderedDescending : .orderedSame
    }

    private static func reversed(_ result: ComparisonResult) -> ComparisonResult {
        switch result {
        case .orderedAscending: return .orderedDescending
        case .orderedDescending: return .orderedAscending
        case .orderedSame: return .orderedSame
        }
    }

    private static func exactInteger(_ value: Value) -> Int64? {
        switch value {
        case .int(let i): return i
        case .bool(let b): return b ? 1 : 0
        default: return nil
        }
    }

    private static func decimal(_ value: Value) -> Decimal? {
        switch value {
        case .int(let i): return Decimal(i)
        case .bool(let b): return b ? 1 : 0
        case .double(let d): return d.isFinite ? Decimal(d) : nil
        case .decimal(let d): return d.isNaN ? nil : d
        default: return nil
        }
    }

    private static func decimalOrder(_ a: Value, _ b: Value) -> ComparisonResult? {
        if case .double(let d) = a, d.isInfinite { return d < 0 ? .orderedAscending : .orderedDescending }
        if case .double(let d) = b, d.isInfinite { return d < 0 ? .orderedDescending : .orderedAscending }
        guard let x = decimal(a), let y = decimal(b) else { return nil }
        return order(x, y)
    }

    private static func order<T: Comparable>(_ x: T, _ y: T) -> ComparisonResult? {
        if x < y { return .orderedAscending }
        if y < x { return .orderedDescending }
        if x == y { return .orderedSame }
        return nil
    }

    private static func order(bytes x: [UInt8], _ y: [UInt8]) -> ComparisonResult {
        if x == y { return .orderedSame }
        return x.lexicographicallyPrecedes(y) ? .orderedAscending : .orderedDescending
    }

    private static func bytes(of uuid: UUID) -> [UInt8] {
        withUnsafeBytes(of: uuid.uuid) { Array($0) }
    }
}
