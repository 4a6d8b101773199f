public import Foundation

/// The identity of a managed object in a store: Sendable, Hashable, stable from insert onwards.
///
/// ObjectGraph reserves primary keys from the store in ranges when objects are inserted, so an
/// ID normally never changes at save: lists, predicates and snapshots that hold an ID stay
/// valid. Only when the store cannot reserve keys at insert (opened read-only, or locked by
/// another connection) does an object get a temporary ID (``isTemporaryID``), replaced by a
/// permanent one at the next successful save or
/// ``ManagedObjectContext/obtainPermanentIDs(for:)``, as Core Data's temporary IDs are. Pass IDs — never objects — between contexts and queues, and turn
/// them back into objects with ``ManagedObjectContext/object(with:)`` or
/// ``ManagedObjectContext/existingObject(with:)``.
public struct ManagedObjectID: Sendable, Hashable, CustomStringConvertible {
    /// The identifier of the store the object lives in.
    public let storeIdentifier: String
    /// The name of the object's (concrete) entity.
    public let entityName: String
    /// The object's primary key in its entity hierarchy's table.
    public let primaryKey: Int64

    package init(storeIdentifier: String, entityName: String, primaryKey: Int64) {
        self.storeIdentifier = storeIdentifier
        self.entityName = entityName
        self.primaryKey = primaryKey
    }

    /// Equal when store, entity and primary key are equal (the key, cheapest, compared first).
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.entityName == rhs.entityName && lhs.storeIdentifier == rhs.storeIdentifier
    }

    /// Hashes the primary key only: IDs that differ only by entity or store are rare in one
    /// table, and hashing the two strings dominated registry lookups.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
    }

    /// Whether the ID is temporary: the store could not reserve a key when the object was
    /// inserted. Normally `false`, since ObjectGraph assigns permanent IDs at insert.
    public var isTemporaryID: Bool { primaryKey < 0 }

    /// A new temporary ID for an object of `entityName`: a negative key, which no stored row
    /// has, unique in the process.
    static func temporary(storeIdentifier: String, entityName: String) -> ManagedObjectID {
        let key = temporaryKeys.withLock { last in
            last -= 1
            return last
        }
        return ManagedObjectID(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: key)
    }

    /// The last temporary key handed out.
    private static let temporaryKeys = Locked<Int64>(0)

    /// The URI form, `x-objectgraph://STORE/Entity/pKEY`, as Core Data's `uriRepresentation()`.
    public func uriRepresentation() -> URL {
        var components = URLComponents()
        components.scheme = "x-objectgraph"
        components.host = storeIdentifier
        components.path = "/\(entityName)/p\(primaryKey)"
        return components.url!
    }

    /// Parses a URI made by ``uriRepresentation()``; `nil` if it is not one.
    public init?(uriRepresentation uri: URL) {
        guard uri.scheme == "x-objectgraph", let host = uri.host, !host.isEmpty else { return nil }
        let parts = uri.path.split(separator: "/")
        guard parts.count == 2, parts[1].first == "p", let key = Int64(parts[1].dropFirst()) else { return nil }
        self.init(storeIdentifier: host, entityName: String(parts[0]), primaryKey: key)
    }

    /// A readable summary, for logs and debugging.
    public var description: String { "<\(uriRepresentation().absoluteString)>" }
}
