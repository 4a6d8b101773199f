import Foundation
import ObjectGraph
import ObjectGraphData
import ObjectGraphPostgres
import TestSupport
import Testing

/// The store kinds a suite runs on: an SQLite file and a PostgreSQL schema.
enum TestStoreKind: String, CaseIterable, CustomTestStringConvertible {
    case sqlite, postgres
    var testDescription: String { rawValue }

    /// A configuration of a new, empty store of this kind, named after `name`. The PostgreSQL
    /// store type is registered first: the tests are their program's root, and must not count
    /// on another suite having registered it.
    func configuration(_ name: String) throws -> ModelConfiguration {
        switch self {
        case .sqlite:
            return ModelConfiguration(url: TestFiles.url("\(name).store"))
        case .postgres:
            PersistentStoreCoordinator.registerPostgreSQLStoreType()
            return ModelConfiguration(url: try TestPostgres.newSchemaURL(prefix: "ogd\(name)"), storeType: PostgreSQLStoreType)
        }
    }
}
