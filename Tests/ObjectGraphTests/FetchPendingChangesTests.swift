import Foundation
import ObjectGraph
import Testing

@Suite("Fetches see unsaved changes")
struct FetchPendingChangesTests {
    private func seeded(_ store: StoreKind) throws -> (TestStack, ManagedObjectContext) {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for (index, title) in ["Arch", "Bell", "Cactus", "Dish", "Eucalyptus"].enumerated() {
                let photo = Photo(context: context)
                photo.unique = "\(index)"
                photo.title = title
                photo.views = Int64(index % 2)
            }
            try context.save()
        }
        return (stack, context)
    }

    @Test("an unsaved insert that matches is returned, an unsaved delete is not", arguments: StoreKind.allCases)
    func insertsAndDeletes(store: StoreKind) throws {
        let (_, context) = try seeded(store)
        try context.performAndWait {
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "title BEGINSWITH %@ OR title == %@", "C", "Aardvark")
            request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
            let newcomer = Photo(context: context)
            newcomer.unique = "new"
            newcomer.title = "Aardvark"
            let cactus = try context.fetch(request).last!
            context.delete(cactus)
            #expect(try context.fetch(request).compactMap(\.title) == ["Aardvark"])
            #expect(try context.count(for: request) == 1)
            let ids = FetchRequest<ManagedObjectID>(entityName: "Photo")
            ids.predicate = request.predicate
            #expect(try context.fetch(ids) == [newcomer.objectID])
            request.includesPendingChanges = false
            #expect(try context.fetch(request).compactMap(\.title) == ["Cactus"])
        }
    }

    @Test("an unsaved edit moves an object into or out of the result, with limit and offset", arguments: StoreKind.allCases)
    func updates(store: StoreKind) throws {
        let (_, context) = try seeded(store)
        try context.performAndWait {
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "views == 1")
            request.sortDescriptors = [FetchSortDescriptor(key: "views", ascending: true)]
            #expect(try context.fetch(request).compactMap(\.title) == ["Bell", "Dish"])
            let all = try context.fetch(Photo.fetchRequest())
            let arch = all.first { $0.title == "Arch" }!
            let bell = all.first { $0.title == "Bell" }!
            arch.views = 1
            bell.views = 7
            // Ties (all views 1) are broken by primary key, as in SQL.
            #expect(try context.fetch(request).compactMap(\.title) == ["Arch", "Dish"])
            request.fetchOffset = 1
            request.fetchLimit = 1
            #expect(try context.fetch(request).compactMap(\.title) == ["Dish"])
            try context.save()
            #expect(try context.fetch(request).compactMap(\.title) == ["Dish"])
        }
    }

    @Test("dictionary results read the store only; count and ID results agree with objects")
    func resultTypes() throws {
        let (_, context) = try seeded(.inMemory)
        try context.performAndWait {
            let request = FetchRequest<[String: Any]>(entityName: "Photo")
            request.propertiesToFetch = ["title", "views"]
            request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: false)]
            let rows = try context.fetch(request)
            #expect(rows.count == 5)
            #expect(rows.first?["title"] as? String == "Eucalyptus")
            #expect(rows.first?["views"] as? Int64 == 0)
            let distinct = FetchRequest<[String: Any]>(entityName: "Photo")
            distinct.propertiesToFetch = ["views"]
            distinct.returnsDistinctResults = true
            distinct.sortDescriptors = [FetchSortDescriptor(key: "views", ascending: true)]
            #expect(try context.fetch(distinct).compactMap { $0["views"] as? Int64 } == [0, 1])
            let counting = FetchRequest<NSNumber>(entityName: "Photo")
            counting.resultType = .countResultType
            counting.predicate = FetchPredicate(format: "views == 0")
            #expect(try context.fetch(counting).first?.intValue == 3)
            _ = Photo(context: context)
            #expect(try context.fetch(request).count == 5)
            let unknown = FetchRequest<[String: Any]>(entityName: "Photo")
            unknown.propertiesToFetch = ["colour"]
            #expect(throws: ObjectGraphError.self) { try context.fetch(unknown) }
        }
    }

    @Test("a bad predicate or sort key throws, naming what and where")
    func badRequests() throws {
        let (_, context) = try seeded(.inMemory)
        context.performAndWait {
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "title == AND views > 3")
            let parse = #expect(throws: FetchPredicateError.self) { try context.fetch(request) }
            #expect(parse?.position == 9)
            #expect(parse?.token == "AND")
            request.predicate = FetchPredicate(format: "colour == 'red'")
            let unknown = #expect(throws: FetchPredicateError.self) { try context.fetch(request) }
            #expect(unknown?.kind == .unknownKey)
            #expect(unknown?.message.contains("colour") == true)
            #expect(unknown?.message.contains("Photo") == true)
            request.predicate = FetchPredicate(format: "views > $MIN")
            #expect(throws: FetchPredicateError.self) { try context.fetch(request) }
            request.predicate = FetchPredicate(format: "views > $MIN").withSubstitutionVariables(["MIN": 0])
            #expect((try? context.count(for: request)) == 2)
            request.predicate = nil
            request.sortDescriptors = [FetchSortDescriptor(key: "photographer.nickname", ascending: true)]
            let sort = #expect(throws: ObjectGraphError.self) { try context.fetch(request) }
            #expect(sort?.message.contains("nickname") == true)
        }
    }
}
