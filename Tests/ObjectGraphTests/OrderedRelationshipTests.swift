import Foundation
import ObjectGraph
import Testing

@Suite("Ordered relationships")
struct OrderedRelationshipTests {
    static func model() -> ManagedObjectModel {
        ManagedObjectModel {
            EntityDescription("Tour") {
                AttributeDescription("name", .string)
                RelationshipDescription("stops", to: "Stop", inverse: "tour", toMany: true, ordered: true)
                RelationshipDescription("guides", to: "Guide", inverse: "tours", toMany: true, ordered: true)
            }
            EntityDescription("Stop") {
                AttributeDescription("name", .string)
                RelationshipDescription("tour", to: "Tour", inverse: "stops")
            }
            EntityDescription("Guide") {
                AttributeDescription("name", .string)
                RelationshipDescription("tours", to: "Tour", inverse: "guides", toMany: true)
            }
        }
    }

    @Test("the order of one-to-many and many-to-many members survives a save", arguments: StoreKind.allCases)
    func order(store: StoreKind) throws {
        let stack = try TestStack(store, model: Self.model())
        let context = stack.container.newBackgroundContext()
        let tourID = try context.performAndWait {
            let tour = try context.insertObject(entityName: "Tour")
            tour.setValue("Campus loop", forKey: "name")
            let stops = try ["Oval", "Quad", "Church", "Tower"].map { name in
                let stop = try context.insertObject(entityName: "Stop")
                stop.setValue(name, forKey: "name")
                return stop
            }
            tour.setValue(Array(stops.reversed()), forKey: "stops")
            let guides = try ["Zed", "Amy"].map { name in
                let guide = try context.insertObject(entityName: "Guide")
                guide.setValue(name, forKey: "name")
                return guide
            }
            tour.setValue(guides, forKey: "guides")
            #expect((stops[0].value(forKey: "tour") as? ManagedObject) === tour)
            try context.save()
            return tour.objectID
        }
        let reader = stack.container.newBackgroundContext()
        try reader.performAndWait {
            let tour = try reader.existingObject(with: tourID)
            let stops = try #require(tour.value(forKey: "stops") as? [ManagedObject])
            #expect(stops.compactMap { $0.value(forKey: "name") as? String } == ["Tower", "Church", "Quad", "Oval"])
            let guides = try #require(tour.value(forKey: "guides") as? [ManagedObject])
            #expect(guides.compactMap { $0.value(forKey: "name") as? String } == ["Zed", "Amy"])
            tour.setValue(Array(stops.dropFirst()) + [stops[0]], forKey: "stops")
            try reader.save()
        }
        let third = stack.container.newBackgroundContext()
        try third.performAndWait {
            let stops = try #require(try third.existingObject(with: tourID).value(forKey: "stops") as? [ManagedObject])
            #expect(stops.compactMap { $0.value(forKey: "name") as? String } == ["Church", "Quad", "Oval", "Tower"])
        }
    }
}
