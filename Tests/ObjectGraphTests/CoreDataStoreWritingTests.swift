import Foundation
import ObjectGraph
import Testing

/// Saves into a store Apple's Core Data wrote keep it in Core Data's layout: the same schema,
/// `Z_PRIMARYKEY`, `Z_OPT` and `Z_METADATA` as Core Data keeps them, and a file SQLite finds
/// sound — checked by the reference reader, independent of ObjectGraph.
@Suite("Core Data stores: writing")
struct CoreDataStoreWritingTests {
    static let store = "CoreDataPlus-SampleModel/SampleModel_V1.sqlite"
    static let model = "CoreDataPlus-SampleModel/SampleModel.xcdatamodeld/SampleModel.xcdatamodel"

    @Test("insert, update, delete and relationship changes saved in Core Data's layout")
    func saveKeepsLayout() throws {
        let (container, url) = try CoreDataStoreReadingTests.open(Self.store, model: Self.model)
        let before = try CoreDataStoreFixtures.reference(["schema", url.path])
        let metadataBefore = try CoreDataStoreFixtures.reference(["metadata", url.path])
        let carsBefore = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "Car"])["rows"] as? [String: [String: Any]])
        let peopleBefore = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "Person"])["rows"] as? [String: [String: Any]])
        let updatedCar = try #require(carsBefore.keys.compactMap(Int64.init).min())
        let updatedCarVersion = try #require(carsBefore[String(updatedCar)]?["Z_OPT"] as? Int)
        let deletedPerson = try #require(peopleBefore.keys.compactMap(Int64.init).max())
        let ownedByDeleted = carsBefore.filter { ($0.value["ZOWNER"] as? Int).map(Int64.init) == deletedPerson }.keys.compactMap(Int64.init)

        let context = container.newBackgroundContext()
        let (adaKey, newCarKey, sportCarKey) = try context.performAndWait {
            let ada = try context.insertObject(entityName: "Person")
            ada.setValue("Ada", forKey: "firstName")
            ada.setValue("Lovelace", forKey: "lastName")
            ada.setValue(UUID(uuidString: "0F0E0D0C-0B0A-0908-0706-050403020100"), forKey: "id")
            ada.setValue(Date(timeIntervalSinceReferenceDate: 700_000_000.5), forKey: "updatedAt")
            let car = try context.insertObject(entityName: "Car")
            car.setValue("OG-0001", forKey: "numberPlate")
            car.setValue(ada, forKey: "owner")
            let sportCar = try context.insertObject(entityName: "SportCar")
            sportCar.setValue("OG-0002", forKey: "numberPlate")
            sportCar.setValue("Linux", forKey: "maker")

            let old = try #require(try context.fetch(FetchRequest<ManagedObject>(entityName: "Car")).first { $0.objectID.primaryKey == updatedCar })
            old.setValue("Renamed maker", forKey: "maker")
            old.setValue(ada, forKey: "owner")
            let people = FetchRequest<ManagedObject>(entityName: "Person")
            people.predicate = FetchPredicate(format: "lastName != nil")
            let gone = try #require(try context.fetch(people).first { $0.objectID.primaryKey == deletedPerson })
            context.delete(gone)
            try context.save()
            return (ada.objectID.primaryKey, car.objectID.primaryKey, sportCar.objectID.primaryKey)
        }

        let after = try CoreDataStoreFixtures.reference(["schema", url.path])
        #expect(after["integrity"] as? [String] == ["ok"])
        #expect(after["sql"] as? [String] == before["sql"] as? [String])
        let metadataAfter = try CoreDataStoreFixtures.reference(["metadata", url.path])
        #expect(metadataAfter["plist"] as? String == metadataBefore["plist"] as? String)

        let cars = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "Car"])["rows"] as? [String: [String: Any]])
        let people = try #require(try CoreDataStoreFixtures.reference(["entity", url.path, "Person"])["rows"] as? [String: [String: Any]])
        let keys = try #require(after["primarykeys"] as? [String: [String: Int]])
        #expect((keys["Car"]?["max"] ?? 0) >= cars.keys.compactMap(Int.init).max() ?? 0)
        #expect((keys["Person"]?["max"] ?? 0) >= people.keys.compactMap(Int.init).max() ?? 0)
        #expect(keys["SportCar"]?["ent"] == 2 && keys["SportCar"]?["super"] == 1)

        let ada = try #require(people[String(adaKey)])
        #expect(ada["Z_ENT"] as? Int == 4 && ada["Z_OPT"] as? Int == 1)
        #expect(ada["ZFIRSTNAME"] as? String == "Ada")
        #expect((ada["ZID"] as? [String: Any])?["hex"] as? String == "0f0e0d0c0b0a09080706050403020100")
        #expect(ada["ZUPDATEDAT"] as? Double == 700_000_000.5)
        let newCar = try #require(cars[String(newCarKey)])
        #expect(newCar["Z_ENT"] as? Int == 1 && newCar["Z_OPT"] as? Int == 1)
        #expect((newCar["ZOWNER"] as? Int).map(Int64.init) == adaKey)
        #expect(cars[String(sportCarKey)]?["Z_ENT"] as? Int == 2)
        let renamed = try #require(cars[String(updatedCar)])
        #expect(renamed["ZMAKER"] as? String == "Renamed maker")
        #expect((renamed["ZOWNER"] as? Int).map(Int64.init) == adaKey)
        #expect(renamed["Z_OPT"] as? Int == updatedCarVersion + 1)
        #expect(people[String(deletedPerson)] == nil)
        for key in ownedByDeleted where key != updatedCar {
            #expect(cars[String(key)]?["ZOWNER"] is NSNull || cars[String(key)]?["ZOWNER"] == nil, "car \(key) still points at the deleted person")
        }
        #expect(cars.count == carsBefore.count + 2)
        #expect(people.count == peopleBefore.count)
    }
}
