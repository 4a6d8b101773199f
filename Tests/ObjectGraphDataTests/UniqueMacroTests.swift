import Foundation
import ObjectGraph
import ObjectGraphData
import Testing

@Model
final class Edition {
    #Unique<Edition>([\.isbn], [\.title, \.year])
    #Index<Edition>([\.title], [\.year, \.title])

    var isbn: String
    var title: String
    var year: Int
    var copies: Int = 1

    init(isbn: String, title: String, year: Int, copies: Int = 1) {
        self.isbn = isbn
        self.title = title
        self.year = year
        self.copies = copies
    }
}

@Suite("ObjectGraphData #Unique and #Index")
struct UniqueMacroTests {
    @Test("#Unique and #Index become the entity's constraints and indexes")
    func schema() throws {
        let container = try ModelContainer(for: Edition.self, configurations: ModelConfiguration(isStoredInMemoryOnly: true))
        let entity = try #require(container.persistentContainer.managedObjectModel.entitiesByName["Edition"])
        #expect(entity.uniquenessConstraints == [["isbn"], ["title", "year"]])
        #expect(entity.indexes.map { $0.elements.map(\.propertyName) } == [["title"], ["year", "title"]])
    }

    @Test("A compound #Unique group upserts on the pair, not on either value alone")
    func compoundUpsert() throws {
        let container = try ModelContainer(for: Edition.self, configurations: ModelConfiguration(url: TestFiles.url("editions.store")))
        let context = ModelContext(container)
        context.insert(Edition(isbn: "1", title: "Dune", year: 1965))
        context.insert(Edition(isbn: "2", title: "Dune", year: 1984))
        try context.save()
        let other = ModelContext(container)
        other.insert(Edition(isbn: "1", title: "Dune", year: 1965, copies: 4))
        try other.save()
        let reader = ModelContext(container)
        let editions = try reader.fetch(FetchDescriptor<Edition>(sortBy: [SortDescriptor(\.isbn)]))
        #expect(editions.map(\.isbn) == ["1", "2"])
        #expect(editions.map(\.copies) == [4, 1])
    }
}
