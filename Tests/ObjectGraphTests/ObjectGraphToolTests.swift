import Foundation
import ObjectGraph
import TestSupport
import Testing

/// The `objectgraph` command, run as a child process on copies of the fixture stores; its
/// output is compared with what the reference reader (Python's `sqlite3`) reads.
@Suite("objectgraph command")
struct ObjectGraphToolTests {
    /// Runs `objectgraph` with `arguments`: its exit status and standard output.
    static func run(_ arguments: String...) throws -> (status: Int32, output: String) {
        try ChildExecutable.run(ChildExecutable.url(named: "objectgraph"), arguments)
    }

    static let sampleModel = "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel"
    static let sampleModel3 = "CoreDataPlus-SampleModel3/SampleModel3.xcdatamodeld/SampleModel3.xcdatamodel"

    @Test("inspect prints the layout, metadata and each entity's number, parent, rows and version hash")
    func inspect() throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite")
        let before = try Data(contentsOf: store)
        let (status, output) = try Self.run("inspect", store.path)
        #expect(status == 0)
        #expect(
            output == """
                store: \(store.path)
                written by: Core Data
                layout: Core Data
                store type: SQLite
                store UUID: 753753D3-A961-4901-AB05-8CC48B1D3853
                model version identifiers: 1
                metadata keys: NSPersistenceFrameworkVersion, NSStoreModelVersionHashes, NSStoreModelVersionHashesDigest, NSStoreModelVersionHashesVersion, NSStoreModelVersionIdentifiers, NSStoreType, _NSAutoVacuumLevel

                ENTITY             Z_ENT  PARENT    ROWS  VERSION HASH
                Car                1                115   nlVVKQchWCING6zS+Ao9rUkZ90oyqovp7iKmp7QSbI8=
                SportCar           2      Car       5     UU7BkHpWgpn5+2hREGUWE28HVfRfpTqCOg5NRAE9UxM=
                ExpensiveSportCar  3      SportCar  5     PcfjKxvkW1pMeVrJrz4dEKpyItPGmugFu+tECL3rpIA=
                Person             4                20    FkJoVRtFEIrnY6orph/zLTLTIyOFCYfD4hYHyNpEtys=

                """
        )
        // The counts are the reference reader's.
        let cars = try CoreDataStoreFixtures.reference(["entity", store.path, "Car"])
        #expect(cars["count"] as? Int == 125)
        #expect(try Data(contentsOf: store) == before, "inspect leaves the file as it was")
    }

    @Test("inspect --model says whether the model opens the store, and lists what differs")
    func inspectAgainstModel() throws {
        let store = try CoreDataStoreFixtures.copy("objcio-Moody/Moody.moody")
        let same = try Self.run("inspect", store.path, "--model", CoreDataStoreFixtures.url("objcio-Moody/Moody.xcdatamodeld/Moody.xcdatamodel").path)
        #expect(same.status == 0)
        #expect(same.output.contains("/Moody.xcdatamodel: compatible (every entity's version hash is the store's)\n"))
        let other = CoreDataStoreFixtures.url("objcio-Moody/Moody.xcdatamodeld/Moody 4.xcdatamodel").path
        let (status, output) = try Self.run("inspect", store.path, "--model", other)
        #expect(status == 0)
        #expect(
            output.hasSuffix(
                """
                model \(other): not compatible, 4 differences:
                  entity Continent differs (its version hash is not the store's)
                  entity Country differs (its version hash is not the store's)
                  entity GeographicRegion is in the store, not in the model
                  entity Mood differs (its version hash is not the store's)

                """
            ),
            "\(output)"
        )
    }

    @Test("query prints the objects a predicate, sort and limit select, as TSV")
    func queryTSV() throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        let (status, output) = try Self.run(
            "query",
            store.path,
            "User",
            "--model",
            CoreDataStoreFixtures.url(Self.sampleModel3).path,
            "--predicate",
            "name == 'User_1' AND petName ENDSWITH[c] 'G_1_3' OR petName LIKE 'Dog_0_?'",
            "--sort=-name,petName",
            "--limit",
            "4",
            "--format",
            "tsv"
        )
        #expect(status == 0)
        // From the reference reader: User_1/Dog_1_3 (pk 2) and User_0's four dogs (pks 4, 8, 10, 12).
        #expect(output == "pk\tname\tpetName\n2\tUser_1\tDog_1_3\n4\tUser_0\tDog_0_0\n12\tUser_0\tDog_0_1\n10\tUser_0\tDog_0_2\n")
    }

    @Test("query --format json gives every object with its typed values, as the reference reader reads them")
    func queryJSON() throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel/SampleModel_V1.sqlite")
        let (status, output) = try Self.run(
            "query",
            store.path,
            "Car",
            "--model",
            CoreDataStoreFixtures.url(Self.sampleModel).path,
            "--predicate",
            "owner.firstName != nil",
            "--format",
            "json"
        )
        #expect(status == 0)
        let objects = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        let reference = try #require(try CoreDataStoreFixtures.reference(["entity", store.path, "Car"])["rows"] as? [String: [String: Any]])
        let owned = reference.filter { $0.value["ZOWNER"] is Int }
        #expect(objects.count == owned.count)
        #expect(!objects.isEmpty)
        for object in objects {
            let pk = try #require(object["pk"] as? Int)
            let row = try #require(reference[String(pk)])
            #expect(object["numberPlate"] as? String == row["ZNUMBERPLATE"] as? String)
            #expect(object["owner"] as? String == "Person/\(row["ZOWNER"] as? Int ?? -1)")
            #expect(["Car", "SportCar", "ExpensiveSportCar"].contains(object["entity"] as? String ?? ""))
        }
    }

    @Test("a table lines up wide characters and shows tabs and line breaks as escapes")
    func queryTable() throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        let model = try ManagedObjectModel(contentsOf: CoreDataStoreFixtures.url(Self.sampleModel3))
        let container = PersistentContainer(name: "SampleModel3", managedObjectModel: model)
        container.persistentStoreDescriptions = [PersistentStoreDescription(url: store)]
        var failure: (any Error)?
        container.loadPersistentStores { _, error in failure = error }
        if let failure { throw failure }
        let context = container.newBackgroundContext()
        try context.performAndWait {
            let user = try context.insertObject(entityName: "User")
            user.setValue("嘆きの天使", forKey: "name")
            user.setValue("Tab\there\nnext", forKey: "petName")
            try context.save()
        }
        let (status, output) = try Self.run(
            "query",
            store.path,
            "User",
            "--model",
            CoreDataStoreFixtures.url(Self.sampleModel3).path,
            "--predicate",
            "name == '嘆きの天使' OR petName == 'Dog_2_0'",
            "--sort",
            "name"
        )
        #expect(status == 0)
        #expect(
            output == """
                pk  name        petName
                1   User_2      Dog_2_0
                13  嘆きの天使  Tab\\there\\nnext
                (2 objects)

                """
        )
    }

    @Test("with no --model, query uses the model the store carries in Z_MODELCACHE")
    func queryWithStoreModel() throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        let (status, output) = try Self.run("query", store.path, "User", "--predicate", "petName ENDSWITH '_3'", "--sort", "name", "--format", "tsv")
        #expect(status == 0)
        // From the reference reader: pks 8 (User_0), 2 (User_1) and 7 (User_2) have a Dog_*_3.
        #expect(output == "pk\tname\tpetName\n8\tUser_0\tDog_0_3\n2\tUser_1\tDog_1_3\n7\tUser_2\tDog_2_3\n")
    }

    @Test("a query of an entity the model lacks fails, naming the entities it has")
    func unknownEntity() throws {
        let store = try CoreDataStoreFixtures.copy("CoreDataPlus-SampleModel3/SampleModel3_V1.sqlite")
        let (status, output) = try Self.run("query", store.path, "Dog", "--model", CoreDataStoreFixtures.url(Self.sampleModel3).path)
        #expect(status != 0)
        #expect(output.isEmpty)
    }
}
