import Foundation

extension Value {
    /// Orders two values the way the SQLite store orders them (so in-memory sorting and SQL
    /// `ORDER BY` agree): `nil` first, numbers numerically, strings by their UTF-8 bytes (the
    /// Unicode scalar order of NFC strings), dates by time, data and UUIDs by bytes.
    ///
    /// Returns `nil` for values of kinds that do not compare.
    static func sortCompare(_ lhs: Value, _ rhs: Value) -> ComparisonResult? {
        switch (lhs, rhs) {
        case (.null, .null): return .orderedSame
        case (.null, _): return .orderedAscending
        case (_, .null): return .orderedDescending
        case let (.string(a), .string(b)): return compareBytes(a.utf8, b.utf8)
        case let (.date(a), .date(b)): return order(a.timeIntervalSinceReferenceDate, b.timeIntervalSinceReferenceDate)
        case let (.data(a), .data(b)): return compareBytes(a, b)
        case let (.uuid(a), .uuid(b)): return compareBytes(a.bytes, b.bytes)
        case let (.url(a), .url(b)): return compareBytes(a.absoluteString.utf8, b.absoluteString.utf8)
        case let (.int(a), .int(b)): return order(a, b)
        case let (.decimal(a), .decimal(b)): return order(a, b)
        case let (.objectID(a), .objectID(b)): return order(a.primaryKey, b.primaryKey)
        default:
            guard let a = lhs.numericDouble, let b = rhs.numericDouble else {
                if case .decimal(let a) = lhs, let b = rhs.numericDecimal { return order(a, b) }
                if case .decimal(let b) = rhs, let a = lhs.numericDecimal { return order(a, b) }
                return nil
            }
            if case .decimal = lhs, let b = rhs.numericDecimal, case .decimal(let a) = lhs { return order(a, b) }
            return order(a, b)
        }
    }

    var numericDouble: Double? {
        switch self {
        case .int(let int): Double(int)
        case .double(let double): double
        case .bool(let bool): bool ? 1 : 0
        case .decimal(let decimal): NSDecimalNumber(decimal: decimal).doubleValue
        default: nil
        }
    }

    var numericDecimal: Decimal? {
        switch self {
        case .int(let int): Decimal(int)
        case .double(let double): Decimal(double)
        case .bool(let bool): bool ? 1 : 0
        case .decimal(let decimal): decimal
        default: nil
        }
    }
}

private func order<T: Comparable>(_ a: T, _ b: T) -> ComparisonResult {
    a < b ? .orderedAscending : a > b ? .orderedDescending : .orderedSame
}

private func compareBytes<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> ComparisonResult {
    var left = a.makeIterator()
    var right = b.makeIterator()
    while true {
        switch (left.next(), right.next()) {
        case (nil, nil): return .orderedSame
        case (nil, _): return .orderedAscending
        case (_, nil): return .orderedDescending
        case let (x?, y?): if x != y { return x < y ? .orderedAscending : .orderedDescending }
        }
    }
}

extension UUID {
    /// The UUID's 16 bytes, in order.
    var bytes: [UInt8] {
        withUnsafeBytes(of: uuid) { Array($0) }
    }
}
