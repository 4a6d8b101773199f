import Foundation
import ObjectGraph
import Testing

/// Custom migration stages, for changes a lightweight migration cannot infer.
@Suite("Migrations: custom stages")
struct MigrationCustomStageTests {
    /// An `Inventory.xcdatamodeld` of two versions: `Item.quantity` is a String in the first
    /// and an Integer 64 in the second — a type change, not lightweight.
    private static func inventoryBundle() throws -> ManagedObjectModelBundle {
        let bundle = try XcodeFixtures.temporaryFolder().appendingPathComponent("Inventory.xcdatamodeld")
        let versions = [("Inventory", "String"), ("Inventory 2", "Integer 64")]
        for (name, type) in versions {
            let folder = bundle.appendingPathComponent("\(name).xcdatamodel")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let contents = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" lastSavedToolsVersion="22522" systemVersion="23C71" minimumToolsVersion="Automatic" sourceLanguage="Swift" userDefinedModelVersionIdentifier="">
                    <entity name="Item" representedClassName="Item" syncable="YES" codeGenerationType="class">
                        <attribute name="name" optional="YES" attributeType="String"/>
                        <attribute name="quantity" optional="YES" attributeType="\(type)" usesScalarValueType="NO"/>
                    </entity>
                </model>
                """
            try Data(contents.utf8).write(to: folder.appendingPathComponent("contents"))
        }
        let current = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>_XCCurrentVersionName</key>
            \t<string>Inventory 2.xcdatamodel</string>
            </dict>
            </plist>
            """
        try Data(current.utf8).write(to: bundle.appendingPathComponent(".xccurrentversion"))
        return try ManagedObjectModelBundle(contentsOf: bundle)
    }

    /// A version-1 inventory store with three items, one of whose quantity is not a number.
    private static func inventoryStore() throws -> URL {
        let url = try XcodeFixtures.temporaryFolder().appendingPathComponent("Inventory.sqlite")
        let bundle = try inventoryBundle()
        let container = PersistentContainer(name: "Inventory", managedObjectModel: try #require(bundle.version(named: "Inventory")?.model))
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try CompanyStore.load(container)
        let context = container.newBackgroundContext()
        try context.performAndWait {
            for (name, quantity) in [("bolts", "12"), ("nuts", " 40"), ("washers", "plenty")] {
                let item = try context.insertObject(entityName: "Item")
                item.setValue(name, forKey: "name")
                item.setValue(quantity, forKey: "quantity")
            }
            try context.save()
        }
        return url
    }

    /// Converts quantities to numbers in SQL; a quantity that is not a number becomes 0.
    private static let quantities = MigrationStage.custom(from: "Inventory", to: "Inventory 2") { context in
        #expect(context.sourceVersion == "Inventory" && context.destinationVersion == "Inventory 2")
        let new = try context.destinationTable(for: "Item")
        let old = try context.sourceTable(for: "Item")
        let newColumn = try context.destinationColumn("quantity", of: "Item")
        let oldColumn = try context.sourceColumn("quantity", of: "Item")
        let offset = try context.keyOffset(for: "Item")
        let rows = try context.fetchAll("SELECT Z_PK, TRIM(\(oldColumn)) FROM \(old)")
        for row in rows {
            guard let key = row[0] as? Int64, let text = row[1] as? String else { continue }
            try context.execute("UPDATE \(new) SET \(newColumn) = ? WHERE Z_PK = ?", arguments: [Int64(text) ?? 0, key + offset])
        }
    }

    @Test("without a stage, the type change fails, naming the attribute")
    func withoutStage() throws {
        let url = try Self.inventoryStore()
        let before = StoreFileRefusalTests.FileBytes(url)
        let container = PersistentContainer(name: "Inventory", bundle: try Self.inventoryBundle())
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.load(container) }
        #expect(error.code == .migrationFailed)
        #expect(error.message.contains("from 'Inventory' to 'Inventory 2'"))
        #expect(error.differences.count == 1 && error.differences[0].hasPrefix("Item.quantity: the type changed from string to integer64"))
        #expect(StoreFileRefusalTests.FileBytes(url) == before)
    }

    @Test("a custom stage migrates a change that is not lightweight")
    func customStage() throws {
        let url = try Self.inventoryStore()
        let bundle = try Self.inventoryBundle()
        let container = PersistentContainer(name: "Inventory", bundle: bundle)
        let description = PersistentStoreDescription(url: url)
        description.setOption(StagedMigrationManager(bundle: bundle, stages: [Self.quantities]), forKey: PersistentStore.stagedMigrationManagerOption)
        container.persistentStoreDescriptions = [description]
        try CompanyStore.load(container)
        let items = try CompanyStore.all("Item", in: container) { item in
            "\(item.value(forKey: "name") as? String ?? "?")=\(item.value(forKey: "quantity") as? Int64 ?? -1)"
        }
        #expect(items == ["bolts=12", "nuts=40", "washers=0"])

        // The stage ran inside the migration: the store is at version 2 now, and reopens as it is.
        let reopened = PersistentContainer(name: "Inventory", bundle: try Self.inventoryBundle())
        reopened.persistentStoreDescriptions = [PersistentStoreDescription(url: url)]
        try CompanyStore.load(reopened)
        #expect(try CompanyStore.all("Item", in: reopened) { _ in "" }.count == 3)
    }

    @Test("a stage that throws rolls the whole migration back")
    func throwingStage() throws {
        struct Refusal: Error {}
        let url = try Self.inventoryStore()
        let before = StoreFileRefusalTests.FileBytes(url)
        let bundle = try Self.inventoryBundle()
        let container = PersistentContainer(name: "Inventory", bundle: bundle)
        let description = PersistentStoreDescription(url: url)
        let stage = MigrationStage.custom(from: "Inventory", to: "Inventory 2") { _ in throw Refusal() }
        description.setOption(StagedMigrationManager(bundle: bundle, stages: [stage]), forKey: PersistentStore.stagedMigrationManagerOption)
        container.persistentStoreDescriptions = [description]
        let error = try #require(throws: ObjectGraphError.self) { try CompanyStore.load(container) }
        #expect(error.code == .migrationFailed && error.message.contains("(custom stage)"))
        #expect(StoreFileRefusalTests.FileBytes(url) == before)
    }
}
