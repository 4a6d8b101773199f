public import Foundation
import Synchronization

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
    /// The store and entity of the ID, interned: one instance per pair for the life of the
    /// process, never freed, so IDs compare it by identity and copy it without reference
    /// counting. An ID is 16 bytes, which keeps ``Value`` small and a relationship value
    /// unboxed.
    unowned(unsafe) let scope: ObjectIDScope
    /// The object's primary key in its entity hierarchy's table.
    public let primaryKey: Int64

    /// The identifier of the store the object lives in.
    public var storeIdentifier: String { scope.storeIdentifier }
    /// The name of the object's (concrete) entity.
    public var entityName: String { scope.entityName }

    package init(storeIdentifier: String, entityName: String, primaryKey: Int64) {
        self.init(scope: ObjectIDScope.interned(storeIdentifier: storeIdentifier, entityName: entityName), primaryKey: primaryKey)
    }

    init(scope: ObjectIDScope, primaryKey: Int64) {
        self.scope = scope
        self.primaryKey = primaryKey
    }

    /// Equal when store, entity and primary key are equal (the key first, then the interned
    /// scope by identity).
    public static func == (lhs: ManagedObjectID, rhs: ManagedObjectID) -> Bool {
        lhs.primaryKey == rhs.primaryKey && lhs.scope === rhs.scope
    }

    /// Hashes the primary key only: IDs that differ only by entity or store are rare in one
    /// table, and equality settles them.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(primaryKey)
    }

    /// What `Set` and `Dictionary` hash an ID by: the primary key, mixed with the table's seed
    /// (see ``mixedHash(_:seed:)``), instead of `Hasher`'s SipHash.
    ///
    /// A context puts every object it inserts, changes or saves into sets and tables keyed by
    /// ID; SipHash's setup and finalization were a tenth of a large import's time in the
    /// context. Keys are the store's own, not a caller's choice, so a keyed hash buys nothing.
    public func _rawHashValue(seed: Int) -> Int {
        mixedHash(UInt64(bitPattern: primaryKey), seed: seed)
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
    private static let temporaryKeys = Mutex<Int64>(0)

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

/// `bits` mixed with `seed` by SplitMix64's finalizer: every input bit flips about half of the
/// output bits, as open-addressed tables indexed by a hash's low bits need.
@inline(__always)
func mixedHash(_ bits: UInt64, seed: Int) -> Int {
    var x = bits &+ UInt64(bitPattern: Int64(seed)) &* 0x9E37_79B9_7F4A_7C15
    x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
    x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
    return Int(truncatingIfNeeded: x ^ (x >> 31))
}

/// The store and entity part of ``ManagedObjectID``s, one instance per pair (see
/// ``interned(storeIdentifier:entityName:)``).
///
/// Instances are never freed — IDs refer to them `unowned(unsafe)` — which costs one small
/// object per store and entity a process opens.
final class ObjectIDScope: Sendable, Hashable {
    let storeIdentifier: String
    let entityName: String
    /// What a context's object registry adds to this scope's page numbers before hashing
    /// them, so that two entities' pages of equal keys fall far apart in its directory (see
    /// ``ObjectRegistry``).
    let registrySalt: UInt64

    private init(storeIdentifier: String, entityName: String, ordinal: Int) {
        self.storeIdentifier = storeIdentifier
        self.entityName = entityName
        registrySalt = UInt64(ordinal) &* 0x9E37_79B9_7F4A_7C15
    }

    /// Identity is equality: there is one scope per store and entity.
    static func == (lhs: ObjectIDScope, rhs: ObjectIDScope) -> Bool { lhs === rhs }

    func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    private struct Key: Hashable {
        let storeIdentifier: String
        let entityName: String
    }

    /// Every scope made so far; holding them here is what keeps them alive.
    private static let table = Mutex<[Key: ObjectIDScope]>([:])

    /// The one scope of `entityName` in the store `storeIdentifier`.
    static func interned(storeIdentifier: String, entityName: String) -> ObjectIDScope {
        let key = Key(storeIdentifier: storeIdentifier, entityName: entityName)
        return table.withLock { table in
            if let scope = table[key] { return scope }
            let scope = ObjectIDScope(storeIdentifier: storeIdentifier, entityName: entityName, ordinal: table.count + 1)
            table[key] = scope
            return scope
        }
    }
}
