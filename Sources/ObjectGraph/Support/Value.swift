package import Foundation

/// One value as ObjectGraph stores, compares and moves it between queues.
///
/// Rows, snapshots, predicate constants and SQL arguments are all made of `Value`, so a
/// value crosses contexts and queues without touching a (non-Sendable) managed object.
/// Strings are kept NFC-normalized (see ``Value/string(_:)`` callers), so binary equality in
/// SQLite and canonical equality in Swift agree.
package enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    /// (Boxed, with `objectID`: the two large payloads would make every `Value` 48 bytes instead of 24.)
    indirect case decimal(Decimal)
    case string(String)
    case date(Date)
    case data(Data)
    case uuid(UUID)
    case url(URL)
    /// A reference to a managed object: a to-one value, a predicate's object argument.
    case objectID(ManagedObjectID)
    /// A collection: a predicate's `{…}` literal or array argument, a to-many value.
    case array([Value])

    /// Whether this is `.null`.
    package var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// Whether the value holds no reference, so that its bytes are a copy of it.
    var isTrivial: Bool {
        switch self {
        case .null, .bool, .int, .double, .date: return true
        case .decimal, .string, .data, .uuid, .url, .objectID, .array: return false
        }
    }
}

extension ContiguousArray where Element == Value {
    /// `count` nulls, in a buffer allocated by code specialized for `Value`.
    ///
    /// `init(repeating:count:)` allocates through the standard library's unspecialized entry
    /// point, which looks the storage class's generic metadata up on every call (about 360
    /// instructions per fetched row); growing an empty array takes the specialized path.
    @inline(__always)
    static func nulls(count: Int) -> ContiguousArray<Value> {
        var values = ContiguousArray<Value>()
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(.null) }
        return values
    }

    /// A copy of `values` in a buffer of its own, made by copying bytes; only for values that
    /// are all ``Value/isTrivial``.
    ///
    /// A new object's values start as its entity's defaults: sharing their buffer made the
    /// object's first set copy them one by one, through `Value`'s copy function; the byte
    /// copy saves 12M of 387M instructions for an import of 50,000 objects of ten attributes
    /// (callgrind). The buffer is allocated as ``nulls(count:)`` does, the cheapest way measured.
    static func trivialCopy(of values: ContiguousArray<Value>) -> ContiguousArray<Value> {
        var copy = nulls(count: values.count)
        copy.withUnsafeMutableBytes { target in
            values.withUnsafeBytes { source in target.copyMemory(from: source) }
        }
        return copy
    }
}
