import Foundation
import ObjectGraph
import Testing

@Suite("Typed queries")
struct TypedQueryTests {
    @Test("typed predicates print as the format strings they stand for")
    func formats() {
        #expect((\Photo.title == "Hoover Tower").predicateFormat == #"title == "Hoover Tower""#)
        #expect((\Photo.title == nil).predicateFormat == "title == nil")
        #expect((\Photo.views > 10).predicateFormat == "views > 10")
        #expect((\Photo.uploaded >= Date(timeIntervalSinceReferenceDate: 0)).predicateFormat.hasPrefix("uploaded >= "))
        #expect((\Photo.photographer?.name == "Ansel").predicateFormat == #"photographer.name == "Ansel""#)
        #expect((\Photo.title).beginsWith("hoo", [.caseInsensitive, .diacriticInsensitive]).predicateFormat == #"title BEGINSWITH[cd] "hoo""#)
        #expect((\Photo.views).in([1, 2]).predicateFormat == "views IN {1, 2}")
        #expect((\Photo.views).between(1...5).predicateFormat == "views BETWEEN {1, 5}")
        #expect((\Photo.recent?.lastViewed).managedKeyPath == "recent.lastViewed")
        #expect(FetchSortDescriptor(\Photo.photographer?.name, ascending: false).key == "photographer.name")
    }

    @Test("typed predicates fetch what their format strings fetch")
    func fetch() throws {
        let stack = try TestStack(inMemory: true)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let ansel = Photographer(context: context)
            ansel.name = "Ansel"
            for (index, title) in ["Hoover Tower", "Höover at dusk", "Main Quad", ""].enumerated() {
                let photo = Photo(context: context)
                photo.unique = "\(index)"
                photo.title = title.isEmpty ? nil : title
                photo.views = Int64(index * 10)
                if index < 2 { photo.photographer = ansel }
            }
            try context.save()
            let request = Photo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(\Photo.views, ascending: false)]
            request.predicate = (\Photo.title).beginsWith("hoo", [.caseInsensitive, .diacriticInsensitive])
            #expect(try context.fetch(request).compactMap(\.title) == ["Höover at dusk", "Hoover Tower"])
            request.predicate = \Photo.photographer?.name == "Ansel" && \Photo.views > 5
            #expect(try context.fetch(request).compactMap(\.title) == ["Höover at dusk"])
            request.predicate = \Photo.title == nil
            #expect(try context.fetch(request).map(\.unique) == ["3"])
            request.predicate = !(\Photo.title == "Main Quad")
            #expect(try context.count(for: request) == 3)
        }
    }
}
