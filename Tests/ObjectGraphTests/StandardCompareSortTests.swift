import Foundation
import Testing

@testable import ObjectGraph

/// `localizedStandardCompare:` sorts the way Foundation compares: digits as numbers, case
/// ignored. The store's order and the in-memory order must agree, or a live controller finds an
/// object away from where the store put it.
@Suite("Sorting with localizedStandardCompare")
struct StandardCompareSortTests {
    @Test("numbers in titles sort as numbers, case ignored, on every store", arguments: StoreKind.allCases)
    func numericOrder(kind: StoreKind) throws {
        let stack = try TestStack(kind)
        let titles = ["Photo 409", "photo 58", "Photo 7", "Photo 1000", "Album 2", "photo 10"]
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for (number, title) in titles.enumerated() {
                let photo = Photo(context: context)
                photo.unique = "\(number)"
                photo.title = title
            }
            try context.save()
            let request = Photo.fetchRequest()
            request.sortDescriptors = [FetchSortDescriptor(key: "title", ascending: true, selector: .localizedStandardCompare)]
            let stored = try context.fetch(request).compactMap(\.title)
            let expected = ["Album 2", "Photo 7", "photo 10", "photo 58", "Photo 409", "Photo 1000"]
            #expect(stored == expected)
            #expect(titles.sorted { $0.localizedStandardCompare($1) == .orderedAscending } == expected)
        }
    }
}
