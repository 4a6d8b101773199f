#if PostgreSQL
import ObjectGraph
import ObjectGraphPostgres
#endif

/// The store types this build of `spot` links, registered where the program starts: SQLite
/// always (ObjectGraph's own), PostgreSQL with the package trait `PostgreSQL`
/// (`swift run --traits PostgreSQL spot …`; the test command turns it on). Without the trait
/// the executable builds neither postgres-nio nor its TLS and crypto stacks.
enum StoreTypes {
    /// Whether `--database postgres://…` can open its database in this build.
    static var hasPostgreSQL: Bool {
        #if PostgreSQL
        true
        #else
        false
        #endif
    }

    /// Registers the store types beyond SQLite that this build links; calling again changes
    /// nothing.
    static func register() {
        #if PostgreSQL
        PersistentStoreCoordinator.registerPostgreSQLStoreType()
        #endif
    }
}
