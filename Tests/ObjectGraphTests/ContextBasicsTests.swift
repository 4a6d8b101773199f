import Foundation
import ObjectGraph
import Testing

@Suite("Context basics")
struct ContextBasicsTests {
    @Test("insert, save, fetch round trip", arguments: StoreKind.allCases)
    func roundTrip(store: StoreKind) throws {
        let stack = try TestStack(store)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let photo = Photo(context: context)
            photo.unique = "1"
            photo.title = "Hoover Tower"
            photo.views = 3
            let tag = Tag(context: context)
            tag.name = "hoover"
            photo.tags = [tag]
            #expect(tag.photos.contains(photo))
            try context.save()
            let request = Photo.fetchRequest()
            request.predicate = FetchPredicate(format: "title BEGINSWITH[cd] %@", "hoo")
            let found = try context.fetch(request)
            request.predicate = FetchPredicate(format: "title BEGINSWITH[cd] %@", "quad")
            #expect(try context.fetch(request).isEmpty)
            request.predicate = FetchPredicate(format: "title BEGINSWITH[cd] %@", "hoo")
            #expect(found.count == 1)
            #expect(found.first === photo)
        }
        let other = stack.container.newBackgroundContext()
        try other.performAndWait {
            let request = FetchRequest<ManagedObject>(entityName: "Photo")
            let photos = try other.fetch(request)
            #expect(photos.count == 1)
            #expect(photos[0].value(forKey: "title") as? String == "Hoover Tower")
            #expect(photos[0].value(forKey: "views") as? Int64 == 3)
            let tags = photos[0].value(forKey: "tags") as? Set<ManagedObject>
            #expect(tags?.count == 1)
            #expect(tags?.first?.value(forKey: "name") as? String == "hoover")
        }
    }
}
