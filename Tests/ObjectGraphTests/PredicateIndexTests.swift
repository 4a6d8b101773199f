import Foundation
import ObjectGraph
import Testing

/// `array[index]`, `array[FIRST]`, `array[LAST]`, `array[SIZE]` and `dictionary["key"]`, as
/// NSPredicate's format documents them: on values, and fetched from every store kind.
@Suite struct PredicateIndexTests {
    @Test func indexesIntoArraysAndDictionaries() {
        let values: [String: Any] = ["tags": ["a", "b", "c"], "empty": [String](), "scores": ["math": 5, "art": 3], "i": 2]
        expectPredicate("tags[FIRST] == 'a'", on: values, is: true)
        expectPredicate("tags[last] == 'c'", on: values, is: true)
        expectPredicate("tags[SIZE] == 3", on: values, is: true)
        expectPredicate("tags[0] == 'a' AND tags[1] == 'b'", on: values, is: true)
        expectPredicate("tags[i] == 'c'", on: values, is: true)
        expectPredicate("tags[i - 1] == 'b'", on: values, is: true)
        expectPredicate("tags[%d] == 'b'", [1], on: values, is: true)
        expectPredicate("{1, 2, 3}[LAST] == 3", on: values, is: true)
        expectPredicate("scores['math'] == 5", on: values, is: true)
        expectPredicate("scores[\"art\"] < scores['math']", on: values, is: true)
        // Past either end (NSExpression raises there) and of nothing: nil.
        expectPredicate("tags[3] == nil", on: values, is: true)
        expectPredicate("tags[-1] == nil", on: values, is: true)
        expectPredicate("empty[FIRST] == nil", on: values, is: true)
        expectPredicate("empty[SIZE] == 0", on: values, is: true)
        expectPredicate("missing[SIZE] == 0", on: values, is: true)
    }

    @Test func badIndexesSayWhy() {
        let values: [String: Any] = ["tags": ["a"], "name": "Stanford"]
        let key = predicateError("tags['x'] == 1", on: values)
        #expect(key?.kind == .typeMismatch)
        #expect(key?.message.contains(#"an index into a collection must be an integer, not "x""#) == true)
        #expect(predicateError("name[0] == 'S'", on: values)?.kind == .typeMismatch)
        #expect(predicateError("tags[tags] == 'a'", on: values)?.kind == .typeMismatch)
    }

    @Test(arguments: StoreKind.allCases)
    func fetchesWithIndexesFromEveryStore(_ kind: StoreKind) throws {
        let stack = try LibraryModel.stack(kind)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for (title, chapters) in [("Dune", 3), ("Emma", 1), ("Ulysses", 0)] {
                let book = try LibraryModel.insert("Book", ["title": title], in: context)
                for index in 0..<chapters {
                    let chapter = try LibraryModel.insert("Chapter", ["title": "\(title) \(index)"], in: context)
                    book.mutableOrderedSetValue(forKey: "chapters").add(chapter)
                }
            }
            try context.save()

            func fetch(_ format: String) throws -> [String] {
                let request = FetchRequest<ManagedObject>(entityName: "Book")
                request.predicate = FetchPredicate(format: format)
                request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
                return try context.fetch(request).map { $0.value(forKey: "title") as! String }
            }
            // Chapters are an ordered relationship: FIRST, LAST and positions follow its order.
            #expect(try fetch("chapters[FIRST].title == 'Dune 0'") == ["Dune"])
            #expect(try fetch("chapters[LAST].title ENDSWITH ' 0'") == ["Emma"])
            #expect(try fetch("chapters[1].title == 'Dune 1'") == ["Dune"])
            #expect(try fetch("chapters[SIZE] >= 1") == ["Dune", "Emma"])
            #expect(try fetch("chapters[SIZE] == 0") == ["Ulysses"])
            #expect(try fetch("chapters[FIRST] == nil") == ["Ulysses"])
        }
    }
}
