/// One version of an app's schema, as SwiftData's `VersionedSchema`.
///
/// ```swift
/// enum LibrarySchemaV1: VersionedSchema {
///     static var versionIdentifier: Schema.Version { Schema.Version(1, 0, 0) }
///     static var models: [any PersistentModel.Type] { [Book.self] }
///     @Model final class Book { var title: String; init(title: String) { self.title = title } }
/// }
/// ```
public protocol VersionedSchema {
    /// The version.
    static var versionIdentifier: Schema.Version { get }
    /// The model classes of this version.
    static var models: [any PersistentModel.Type] { get }
}

/// The versions of a schema and how a store moves between them, as SwiftData's
/// `SchemaMigrationPlan`.
///
/// ```swift
/// enum LibraryMigrationPlan: SchemaMigrationPlan {
///     static var schemas: [any VersionedSchema.Type] { [LibrarySchemaV1.self, LibrarySchemaV2.self] }
///     static var stages: [MigrationStage] { [.lightweight(fromVersion: LibrarySchemaV1.self, toVersion: LibrarySchemaV2.self)] }
/// }
/// let container = try ModelContainer(for: Schema(versionedSchema: LibrarySchemaV2.self),
///                                    migrationPlan: LibraryMigrationPlan.self, configurations: [configuration])
/// ```
public protocol SchemaMigrationPlan {
    /// Every version, oldest first.
    static var schemas: [any VersionedSchema.Type] { get }
    /// The stages between consecutive versions; a step without one is lightweight.
    static var stages: [MigrationStage] { get }
}

/// One step of a migration plan, as SwiftData's `MigrationStage`.
public enum MigrationStage {
    /// A change ObjectGraph infers (added, removed, renamed with `originalName`, optionality).
    case lightweight(fromVersion: any VersionedSchema.Type, toVersion: any VersionedSchema.Type)
    /// A lightweight change with code around it: `willMigrate` runs on a context of the old
    /// version before, `didMigrate` on a context of the new version after; each saves itself.
    case custom(
        fromVersion: any VersionedSchema.Type,
        toVersion: any VersionedSchema.Type,
        willMigrate: ((ModelContext) throws -> Void)?,
        didMigrate: ((ModelContext) throws -> Void)?
    )

    var fromVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(let from, _), .custom(let from, _, _, _): from
        }
    }

    var toVersion: any VersionedSchema.Type {
        switch self {
        case .lightweight(_, let to), .custom(_, let to, _, _): to
        }
    }
}
