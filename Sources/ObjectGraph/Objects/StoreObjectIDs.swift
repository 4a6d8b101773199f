/// The ID scopes of one store's entities, by entity code: how a store makes the IDs of new
/// objects and of the rows it reads.
///
/// ``ObjectIDScope/interned(storeIdentifier:entityName:)`` takes a process-wide lock and hashes
/// two strings; a save of 50,000 new objects or a fetch of 200,000 rows would pay that per
/// object. Stores build this table once, when they learn their identifier.
package struct StoreObjectIDs: Sendable {
    /// The store the IDs belong to.
    package let storeIdentifier: String
    /// By entity code; `nil` for a code no entity has (0 among them).
    private let scopes: [ObjectIDScope?]

    /// No store yet: every lookup by code answers `nil`.
    package init() {
        storeIdentifier = ""
        scopes = []
    }

    /// The scopes of `storeIdentifier`'s entities, `entityNames[code]` naming entity `code`
    /// (`nil` where no entity has the code).
    package init(storeIdentifier: String, entityNames: [String?]) {
        self.storeIdentifier = storeIdentifier
        scopes = entityNames.map { name in name.map { ObjectIDScope.interned(storeIdentifier: storeIdentifier, entityName: $0) } }
    }

    /// The ID of the object of entity code `code` with primary key `primaryKey`; `nil` for a
    /// code the store does not have.
    @inline(__always)
    package func objectID(code: Int, primaryKey: Int64) -> ManagedObjectID? {
        guard code > 0 && code < scopes.count, let scope = scopes[code] else { return nil }
        return ManagedObjectID(scope: scope, primaryKey: primaryKey)
    }

    /// The ID of the object of the entity named `entityName` with primary key `primaryKey`.
    package func objectID(entityName: String, primaryKey: Int64) -> ManagedObjectID {
        ManagedObjectID(storeIdentifier: storeIdentifier, entityName: entityName, primaryKey: primaryKey)
    }

    /// The scope of entity code `code`, which the caller knows the store has.
    @inline(__always)
    func scope(code: Int) -> ObjectIDScope {
        scopes[code]!
    }
}
