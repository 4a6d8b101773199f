public import Foundation
public import ObjectGraph

/// Where and how a container stores its models, as SwiftData's `ModelConfiguration`: an
/// SQLite file (Core Data's layout), memory only, or — given ``storeType`` — a PostgreSQL
/// database.
///
/// ```swift
/// let onDisk = ModelConfiguration(url: URL(filePath: "/var/lib/library/library.store"))
/// let inMemory = ModelConfiguration(isStoredInMemoryOnly: true)
///
/// import ObjectGraphPostgres
/// let server = ModelConfiguration(
///     url: URL(string: "postgres://library@127.0.0.1:5432/library")!,
///     storeType: PostgreSQLStoreType
/// )
/// ```
public struct ModelConfiguration: @unchecked Sendable, Hashable, Identifiable {
    // @unchecked Sendable: the only non-Sendable member is `schema`, an immutable Schema
    // (itself Sendable); the observer is a @Sendable closure.

    /// The configuration's name (its identifier).
    public let name: String
    /// The store's location: a file URL, `/dev/null` in memory, or a `postgres://` URL.
    public let url: URL
    /// Whether the store lives in memory only.
    public let isStoredInMemoryOnly: Bool
    /// Whether contexts may save (a read-only store when `false`).
    public let allowsSave: Bool
    /// The schema this configuration holds, when not the container's whole schema.
    public let schema: Schema?
    /// The ObjectGraph store type: `SQLiteStoreType`, `InMemoryStoreType`, or a registered type
    /// such as ObjectGraphPostgres' `PostgreSQLStoreType`.
    public let storeType: String
    /// Receives every SQL statement the store runs, and a comment line for each fetch whose
    /// predicate was evaluated in memory rather than in SQL (see <doc:SharingSwiftDataModels>).
    public var sqlStatementObserver: SQLStatementObserver?

    /// The configuration's identifier: its ``name``.
    public var id: String { name }

    /// A configuration named `name` (default `"default"`), in memory or in the default file
    /// (`default.store` under the user's Application Support directory, as SwiftData).
    public init(_ name: String? = nil, schema: Schema? = nil, isStoredInMemoryOnly: Bool = false, allowsSave: Bool = true) {
        let name = name ?? "default"
        let directory =
            FileManager.default.urls(for: .applicationSupportDirectory, in: .userDomainMask).first
            ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        self.init(
            name: name,
            schema: schema,
            url: isStoredInMemoryOnly ? URL(fileURLWithPath: "/dev/null") : directory.appendingPathComponent("\(name).store"),
            isStoredInMemoryOnly: isStoredInMemoryOnly,
            allowsSave: allowsSave,
            storeType: isStoredInMemoryOnly ? InMemoryStoreType : SQLiteStoreType
        )
    }

    /// A configuration storing its models at `url`: an SQLite file, or with `storeType`
    /// another store type's URL (`postgres://user@host:port/database?schema=name`).
    public init(_ name: String? = nil, schema: Schema? = nil, url: URL, allowsSave: Bool = true, storeType: String = SQLiteStoreType) {
        self.init(
            name: name ?? "default",
            schema: schema,
            url: url,
            isStoredInMemoryOnly: false,
            allowsSave: allowsSave,
            storeType: storeType
        )
    }

    /// A configuration that holds its models in memory only (or in the default file).
    public init(isStoredInMemoryOnly: Bool) {
        self.init(nil, schema: nil, isStoredInMemoryOnly: isStoredInMemoryOnly, allowsSave: true)
    }

    private init(name: String, schema: Schema?, url: URL, isStoredInMemoryOnly: Bool, allowsSave: Bool, storeType: String) {
        self.name = name
        self.schema = schema
        self.url = url
        self.isStoredInMemoryOnly = isStoredInMemoryOnly
        self.allowsSave = allowsSave
        self.storeType = storeType
    }

    /// Configurations are equal when name, location, store type and save permission are.
    public static func == (lhs: ModelConfiguration, rhs: ModelConfiguration) -> Bool {
        lhs.name == rhs.name && lhs.url == rhs.url && lhs.storeType == rhs.storeType && lhs.allowsSave == rhs.allowsSave
            && lhs.isStoredInMemoryOnly == rhs.isStoredInMemoryOnly
    }

    /// Hashes name, location and store type.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
        hasher.combine(url)
        hasher.combine(storeType)
    }

    /// The ObjectGraph store description for this configuration: with persistent history
    /// and remote change notifications, as SwiftData's stores have them, unless `history` is
    /// `false`.
    func storeDescription(history: Bool = true) -> PersistentStoreDescription {
        let description = PersistentStoreDescription(url: url)
        description.type = storeType
        if history {
            description.setOption(true, forKey: PersistentStore.persistentHistoryTrackingOption)
            description.setOption(true, forKey: PersistentStore.remoteChangeNotificationPostOption)
        }
        if let sqlStatementObserver {
            description.setOption(sqlStatementObserver, forKey: PersistentStore.sqlStatementObserverOption)
        }
        return description
    }
}
