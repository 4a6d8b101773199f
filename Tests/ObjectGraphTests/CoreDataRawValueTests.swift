import Foundation
import Testing

@testable import ObjectGraph

/// Every raw value in the porting article's table is ObjectGraph's constant's value, and it is
/// Core Data's: the article is read, row by row, and each row's ObjectGraph symbol looked up here.
@Suite("Core Data's raw values")
struct CoreDataRawValueTests {
    /// ObjectGraph's constants, by the DocC symbol link the article's table names them with.
    static let ours: [String: String] = {
        typealias Key = ManagedObjectContext.NotificationKey
        var values: [String: String] = [
            "PersistentStore/remoteChangeNotificationPostOption": PersistentStore.remoteChangeNotificationPostOption,
            "PersistentStore/persistentHistoryTrackingOption": PersistentStore.persistentHistoryTrackingOption,
            "PersistentStore/readOnlyOption": PersistentStore.readOnlyOption,
            "PersistentStore/timeoutOption": PersistentStore.timeoutOption,
            "PersistentStore/migratePersistentStoresAutomaticallyOption": PersistentStore.migratePersistentStoresAutomaticallyOption,
            "PersistentStore/inferMappingModelAutomaticallyOption": PersistentStore.inferMappingModelAutomaticallyOption,
            "PersistentStore/stagedMigrationManagerOption": PersistentStore.stagedMigrationManagerOption,
            "Foundation/Notification/Name/managedObjectContextObjectsDidChange": Notification.Name.managedObjectContextObjectsDidChange.rawValue,
            "Foundation/Notification/Name/managedObjectContextWillSave": Notification.Name.managedObjectContextWillSave.rawValue,
            "Foundation/Notification/Name/managedObjectContextDidSave": Notification.Name.managedObjectContextDidSave.rawValue,
            "Foundation/Notification/Name/persistentStoreRemoteChange": Notification.Name.persistentStoreRemoteChange.rawValue,
            "InsertedObjectsKey": InsertedObjectsKey,
            "UpdatedObjectsKey": UpdatedObjectsKey,
            "DeletedObjectsKey": DeletedObjectsKey,
            "StoreUUIDKey": StoreUUIDKey,
            "StoreURLKey": StoreURLKey,
            "PersistentHistoryTokenKey": PersistentHistoryTokenKey,
            "StoreTypeKey": StoreTypeKey,
            "StoreModelVersionHashesKey": StoreModelVersionHashesKey,
            "StoreModelVersionIdentifiersKey": StoreModelVersionIdentifiersKey,
            "PersistenceFrameworkVersionKey": PersistenceFrameworkVersionKey,
            "StoreModelVersionHashesVersionKey": StoreModelVersionHashesVersionKey,
            "PersistentStoreModelVersionChecksumKey": PersistentStoreModelVersionChecksumKey,
            "SQLiteStoreType": SQLiteStoreType,
            "InMemoryStoreType": InMemoryStoreType,
            "ObjectGraphError/errorDomain": ObjectGraphError.errorDomain,
            "ObjectGraphError/errorCode": String(ObjectGraphError(.entityNotFound, "").errorCode),
        ]
        for key in Key.allCases { values["ManagedObjectContext/NotificationKey/\(key)"] = key.rawValue }
        let codes: [String: ObjectGraphError.Code] = [
            "validationMultipleErrors": .validationMultipleErrors,
            "validationRelationshipDeniedDelete": .validationRelationshipDeniedDelete,
            "objectNotFound": .objectNotFound, "managedObjectMerge": .managedObjectMerge,
            "constraintConflict": .constraintConflict, "persistentStoreInvalidType": .persistentStoreInvalidType,
            "persistentStoreOperation": .persistentStoreOperation,
            "persistentStoreIncompatibleVersionHash": .persistentStoreIncompatibleVersionHash,
            "migrationFailed": .migrationFailed, "persistentHistoryTokenExpired": .persistentHistoryTokenExpired,
        ]
        for (name, code) in codes {
            // Bridged to NSError, the error has Core Data's domain and code.
            let bridged = ObjectGraphError(code, "") as NSError
            values["ObjectGraphError/Code/\(name)"] = bridged.domain == NSCocoaErrorDomain ? String(bridged.code) : "domain \(bridged.domain)"
        }
        let policies: [MergePolicyType] = [
            .errorMergePolicyType, .mergeByPropertyStoreTrumpMergePolicyType, .mergeByPropertyObjectTrumpMergePolicyType,
            .overwriteMergePolicyType, .rollbackMergePolicyType,
        ]
        for policy in policies { values["MergePolicyType/\(policy)"] = String(policy.rawValue) }
        for type in [PersistentHistoryChangeType.insert, .update, .delete] {
            values["PersistentHistoryChangeType/\(type)"] = String(type.rawValue)
        }
        return values
    }()

    /// The article's table rows: Core Data's constant, its value, ObjectGraph's symbol.
    static func tableRows() throws -> [(constant: String, value: String, symbol: String)] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let article = try String(
            contentsOf: root.appendingPathComponent("Sources/ObjectGraph/ObjectGraph.docc/PortingFromCoreData.md"),
            encoding: .utf8
        )
        return article.split(separator: "\n").compactMap { line in
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard line.hasPrefix("| `"), cells.count == 3, cells[2].hasPrefix("``") else { return nil }
            func unquoted(_ cell: String) -> String {
                var text = cell.trimmingCharacters(in: CharacterSet(charactersIn: "`"))
                if text.hasPrefix("\"") && text.hasSuffix("\"") { text = String(text.dropFirst().dropLast()) }
                return text
            }
            return (unquoted(cells[0]), unquoted(cells[1]), unquoted(cells[2]))
        }
    }

    @Test("every constant in the porting article's table has Core Data's value, and every constant is in the table")
    func everyValueIsCoreDatas() throws {
        let rows = try Self.tableRows()
        #expect(rows.count == Self.ours.count, "\(rows.count) rows in the article, \(Self.ours.count) constants here")
        for row in rows {
            let value = try #require(Self.ours[row.symbol], "the article names \(row.symbol), which this test does not know")
            #expect(value == row.value, "\(row.constant): Core Data's value is \(row.value), ObjectGraph's \(row.symbol) is \(value)")
        }
        let named = Set(rows.map(\.symbol))
        #expect(Set(Self.ours.keys).subtracting(named).isEmpty, "not in the article: \(Set(Self.ours.keys).subtracting(named).sorted())")
        // The constant whose name and value differ, spelled out once more on its own.
        #expect(PersistentStore.remoteChangeNotificationPostOption == "NSPersistentStoreRemoteChangeNotificationOptionKey")
    }

    @Test("an ObjectGraph error bridges to NSError with Core Data's domain, code and message")
    func errorsBridge() {
        let error = ObjectGraphError(.managedObjectMerge, "Item 3 changed in the store") as NSError
        #expect(error.domain == "NSCocoaErrorDomain")
        #expect(error.code == 133_020)
        #expect(error.localizedDescription == "Item 3 changed in the store")
    }
}
