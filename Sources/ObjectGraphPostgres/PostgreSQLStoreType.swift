public import Foundation
public import ObjectGraph

/// Core Data–style name of the PostgreSQL store type, for
/// ``ObjectGraph/PersistentStoreDescription/type`` and
/// ``ObjectGraph/PersistentStoreCoordinator/addPersistentStore(ofType:configurationName:at:options:)``.
///
/// The type opens stores once registered, as Core Data's `registerStoreClass(_:type:)`: call
/// ``ObjectGraph/PersistentStoreCoordinator/registerPostgreSQLStoreType()`` once where the
/// program starts, before it loads a store.
///
/// ```swift
/// import ObjectGraphPostgres
///
/// PersistentStoreCoordinator.registerPostgreSQLStoreType()
/// let description = PersistentStoreDescription(url: URL(string: "postgres://spot@127.0.0.1:5432/spot")!)
/// description.type = PostgreSQLStoreType
/// container.persistentStoreDescriptions = [description]
/// ```
public let PostgreSQLStoreType = "PostgreSQL"

extension PersistentStoreCoordinator {
    /// Registers the PostgreSQL store type: afterwards a description of type
    /// ``PostgreSQLStoreType``, or one whose URL is `postgres://…` or `postgresql://…` (with the
    /// default type), opens a PostgreSQL store, and
    /// ``ObjectGraph/PersistentStoreCoordinator/metadataForPersistentStore(type:at:options:)``
    /// and ``ObjectGraph/ManagedObjectModel/init(cachedInStoreAt:)`` read such a store's
    /// metadata and model without opening it. Registering again changes nothing.
    public static func registerPostgreSQLStoreType() {
        registerStoreType(
            PostgreSQLStoreType,
            urlSchemes: ["postgres", "postgresql"],
            metadataReader: { url, _ in try PostgreSQLStore.storedMetadata(at: url) }
        ) { request in
            guard let url = request.url else {
                throw ObjectGraphError(.persistentStoreOperation, "a PostgreSQL store needs a postgres:// URL")
            }
            return try PostgreSQLStore(model: request.model, url: url, options: request.options)
        }
    }
}

extension PersistentStore.StoreType {
    /// A PostgreSQL database (and schema) on a server, named by a
    /// `postgres://user[:password]@host[:port]/database[?schema=name]` URL; see
    /// ``PostgreSQLStoreType``.
    public static var postgreSQL: PersistentStore.StoreType {
        PersistentStore.StoreType(rawValue: PostgreSQLStoreType)
    }
}

extension PersistentStoreDescription {
    /// A description of the PostgreSQL store at `url`
    /// (`postgres://user[:password]@host[:port]/database[?schema=name]`); the type must be
    /// registered (``ObjectGraph/PersistentStoreCoordinator/registerPostgreSQLStoreType()``)
    /// before the store loads.
    ///
    /// The store's tables are created in the schema when it has none; a schema holding a store
    /// of another model version is migrated as an SQLite store is (lightweight, in one
    /// transaction), or refused with nothing in it changed.
    public convenience init(postgreSQLURL url: URL) {
        self.init(url: url)
        type = PostgreSQLStoreType
    }
}
