public import Foundation
public import ObjectGraph

/// Core Data–style name of the PostgreSQL store type, for
/// ``ObjectGraph/PersistentStoreDescription/type`` and
/// ``ObjectGraph/PersistentStoreCoordinator/addPersistentStore(ofType:configurationName:at:options:)``.
///
/// Reading it registers the store type with the coordinator (as Core Data's
/// `registerStoreClass(_:type:)`); a description whose URL is `postgres://…` finds it too once
/// registered.
///
/// ```swift
/// import ObjectGraphPostgres
///
/// let description = PersistentStoreDescription(url: URL(string: "postgres://spot@127.0.0.1:5432/spot")!)
/// description.type = PostgreSQLStoreType
/// container.persistentStoreDescriptions = [description]
/// ```
public var PostgreSQLStoreType: String {
    PostgreSQLStoreRegistration.register()
    return PostgreSQLStoreRegistration.typeName
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
    /// (`postgres://user[:password]@host[:port]/database[?schema=name]`).
    ///
    /// The store's tables are created in the schema when it has none; a schema holding a store
    /// of another model version is migrated as an SQLite store is (lightweight, in one
    /// transaction), or refused with nothing in it changed.
    public convenience init(postgreSQLURL url: URL) {
        self.init(url: url)
        type = PostgreSQLStoreType
    }
}

/// Registers the PostgreSQL store type once.
enum PostgreSQLStoreRegistration {
    static let typeName = "PostgreSQL"

    private static let registered: Void = {
        PersistentStoreCoordinator.registerStoreType(typeName) { request in
            guard let url = request.url else {
                throw ObjectGraphError(.persistentStoreOperation, "a PostgreSQL store needs a postgres:// URL")
            }
            return try PostgreSQLStore(model: request.model, url: url, options: request.options)
        }
    }()

    static func register() {
        _ = registered
    }
}
