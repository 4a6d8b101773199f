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
}
