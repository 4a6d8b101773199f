import Foundation
import ObjectGraph
import Testing

/// Dictionary fetches that compute aggregates, grouped or not, as Core Data's
/// `NSExpressionDescription`, `propertiesToGroupBy` and `havingPredicate`: on every store kind.
@Suite struct DictionaryAggregateTests {
    /// Two shelves and a book on none: A holds Dune (1965, 9.0) and Emma (1815, 4.5), B holds
    /// Ulysses (1922, 12.0); the Odyssey (800, 3.0) is on no shelf.
    private static func library(_ kind: StoreKind) throws -> (TestStack, ManagedObjectContext) {
        let stack = try LibraryModel.stack(kind)
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            let a = try LibraryModel.insert("Shelf", ["name": "A"], in: context)
            let b = try LibraryModel.insert("Shelf", ["name": "B"], in: context)
            for (title, year, price, shelf) in [
                ("Dune", 1965, 9.0, a), ("Emma", 1815, 4.5, a), ("Ulysses", 1922, 12.0, b), ("Odyssey", 800, 3.0, nil),
            ] as [(String, Int, Double, ManagedObject?)] {
                let book = try LibraryModel.insert("Book", ["title": title, "year": Int64(year), "price": price], in: context)
                book.setValue(shelf, forKey: "shelf")
            }
            try context.save()
        }
        return (stack, context)
    }

    private static func expression(_ name: String, _ function: String, _ keyPath: String, _ type: AttributeType? = nil) -> ExpressionDescription {
        let description = ExpressionDescription()
        description.name = name
        description.expression = FetchExpression(forFunction: function, arguments: [FetchExpression(forKeyPath: keyPath)])
        description.expressionResultType = type
        return description
    }

    private static func request(_ properties: [Any], groupBy: [Any]? = nil) -> FetchRequest<[String: Any]> {
        let request = FetchRequest<[String: Any]>(entityName: "Book")
        request.resultType = .dictionaryResultType
        request.propertiesToFetch = properties
        request.propertiesToGroupBy = groupBy
        return request
    }

    private static func shelfName(_ result: [String: Any], in context: ManagedObjectContext) -> String? {
        (result["shelf"] as? ManagedObjectID).flatMap { context.object(with: $0).value(forKey: "name") as? String }
    }

    @Test(arguments: StoreKind.allCases)
    func aggregatesPerGroup(_ kind: StoreKind) throws {
        let (_, context) = try Self.library(kind)
        try context.performAndWait {
            let request = Self.request(
                ["shelf", Self.expression("books", "count:", "title"), Self.expression("total", "sum:", "price"),
                 Self.expression("oldest", "min:", "year"), Self.expression("last", "max:", "title"), Self.expression("mean", "average:", "price")],
                groupBy: ["shelf"]
            )
            request.sortDescriptors = [FetchSortDescriptor(key: "total", ascending: false)]
            let results = try context.fetch(request)
            #expect(results.map { Self.shelfName($0, in: context) } == ["A", "B", nil])
            #expect(results.map { $0["books"] as? Int64 } == [2, 1, 1])
            #expect(results.map { $0["total"] as? Double } == [13.5, 12.0, 3.0])
            #expect(results.map { $0["oldest"] as? Int64 } == [1815, 1922, 800])
            #expect(results.map { $0["last"] as? String } == ["Emma", "Ulysses", "Odyssey"])
            #expect(results.map { $0["mean"] as? Double } == [6.75, 12.0, 3.0])
            // The no-shelf group has no shelf key, as Core Data leaves nil out.
            #expect(results[2]["shelf"] == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func aggregatesWithoutGroupingGiveOneResult(_ kind: StoreKind) throws {
        let (_, context) = try Self.library(kind)
        try context.performAndWait {
            let properties: [Any] = [
                Self.expression("count", "count:", "title"), Self.expression("total", "sum:", "price"),
                Self.expression("first", "min:", "year"), Self.expression("mean", "average:", "year", .integer64),
            ]
            let all = try context.fetch(Self.request(properties))
            #expect(all.count == 1)
            #expect(all.first?["count"] as? Int64 == 4)
            #expect(all.first?["total"] as? Double == 28.5)
            #expect(all.first?["first"] as? Int64 == 800)
            // (1965 + 1815 + 1922 + 800) / 4 = 1625.5, returned as the declared Int64.
            #expect(all.first?["mean"] as? Int64 == 1625)

            let request = Self.request(properties)
            request.predicate = FetchPredicate(format: "year > 3000")
            let none = try context.fetch(request)
            #expect(none.count == 1)
            #expect(none.first?["count"] as? Int64 == 0)
            #expect(none.first?["total"] as? Int64 == 0)
            #expect(none.first?["first"] == nil && none.first?["mean"] == nil)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func havingSortOffsetAndLimitApplyToGroups(_ kind: StoreKind) throws {
        let (_, context) = try Self.library(kind)
        try context.performAndWait { () throws -> Void in
            let count = Self.expression("count", "count:", "title")
            let request = Self.request(["shelf", count], groupBy: ["shelf"])
            request.havingPredicate = FetchPredicate(format: "$count > 1")
            #expect(try context.fetch(request).map { Self.shelfName($0, in: context) } == ["A"])
            // A variable whose value is nil (no book of the group has a published date) is nil,
            // not a missing variable.
            let published = Self.request(["shelf", count, Self.expression("first", "min:", "published")], groupBy: ["shelf"])
            published.havingPredicate = FetchPredicate(format: "$first == nil AND $count >= 1")
            #expect(try context.fetch(published).count == 3)
            request.havingPredicate = FetchPredicate(format: "count == 1")
            request.sortDescriptors = [FetchSortDescriptor(key: "shelf", ascending: true)]
            #expect(try context.fetch(request).count == 2)

            let byYear = Self.request(["year", count], groupBy: ["year"])
            byYear.predicate = FetchPredicate(format: "price > 4")
            byYear.sortDescriptors = [FetchSortDescriptor(key: "year", ascending: true)]
            byYear.fetchOffset = 1
            byYear.fetchLimit = 1
            #expect(try context.fetch(byYear).map { $0["year"] as? Int64 } == [1922])
        }
    }

    @Test(arguments: StoreKind.allCases)
    func keyPathExpressionsRenameAndInMemoryPredicatesWork(_ kind: StoreKind) throws {
        let (_, context) = try Self.library(kind)
        try context.performAndWait {
            let renamed = ExpressionDescription()
            renamed.name = "name"
            renamed.expression = FetchExpression(forKeyPath: "title")
            let request = Self.request([renamed, "year"])
            // Arithmetic is evaluated in memory: the dictionaries come from the matching objects.
            request.predicate = FetchPredicate(format: "year + 100 > 2000")
            request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true)]
            let results = try context.fetch(request)
            #expect(results.map { $0["name"] as? String } == ["Dune", "Ulysses"])
            #expect(results.map { $0["year"] as? Int64 } == [1965, 1922])

            // Grouped, with the same in-memory predicate; unsaved changes are not included.
            _ = try LibraryModel.insert("Book", ["title": "Unsaved", "year": Int64(2024)], in: context)
            let grouped = Self.request([Self.expression("count", "count:", "title")])
            grouped.predicate = FetchPredicate(format: "year + 100 > 2000")
            #expect(try context.fetch(grouped).first?["count"] as? Int64 == 2)
            context.rollback()
        }
    }

    @Test(arguments: StoreKind.allCases)
    func badRequestsSayWhatIsWrong(_ kind: StoreKind) throws {
        let (_, context) = try Self.library(kind)
        try context.performAndWait { () throws -> Void in
            func message(_ request: FetchRequest<[String: Any]>) -> String? {
                do {
                    _ = try context.fetch(request)
                    return nil
                } catch let error as ObjectGraphError {
                    return error.message
                } catch {
                    return "\(error)"
                }
            }
            let ungrouped = Self.request(["title", Self.expression("count", "count:", "title")], groupBy: ["shelf"])
            #expect(message(ungrouped)?.contains("'title' is fetched but not grouped") == true)
            #expect(message(Self.request([Self.expression("m", "median:", "price")]))?.contains("uses the function 'median:'") == true)
            #expect(message(Self.request([Self.expression("t", "sum:", "shelf.name")]))?.contains("aggregates read a property of Book itself") == true)
            #expect(message(Self.request([Self.expression("t", "sum:", "colour")]))?.contains("Book has no property 'colour'") == true)
            let sorted = Self.request(["shelf", Self.expression("count", "count:", "title")], groupBy: ["shelf"])
            sorted.sortDescriptors = [FetchSortDescriptor(key: "price", ascending: true)]
            #expect(message(sorted)?.contains("cannot sort grouped results by 'price'") == true)
            let objects = FetchRequest<ManagedObject>(entityName: "Book")
            objects.propertiesToGroupBy = ["shelf"]
            #expect(throws: ObjectGraphError.self) { try context.fetch(objects) }
        }
    }
}
