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

    @Test("every localized selector orders exactly as Foundation's NSString comparison")
    func localizedSelectorsAgreeWithFoundation() {
        // Accents, ligatures, widths, scripts, digits, case, empty and combining marks: the
        // collation ObjectGraph calls directly must give Foundation's answer for each pair.
        let strings = [
            "", "a", "A", "a10", "a9", "a09", "É", "e", "E\u{301}", "f", "Straße", "strasse", "ｆｕｌｌ", "full",
            "Zebra", "zebra", "äb", "ab", "photo 2", "Photo 10", "photo 1", "日本", "にほん", "Ωmega", "omega",
            "ﬁle", "file", "-1", "1", " x", "x ", "Ö", "oe", "œuvre", "ZZZ", "\u{1F600}", "١٢",
        ]
        let selectors: [(FetchSortDescriptor.Selector, String.CompareOptions)] = [
            (.localizedCompare, []),
            (.localizedCaseInsensitiveCompare, [.caseInsensitive]),
            (.localizedStandardCompare, [.caseInsensitive, .numeric, .widthInsensitive, .forcedOrdering]),
        ]
        for (selector, options) in selectors {
            for a in strings {
                for b in strings {
                    let foundation = a.compare(b, options: options, range: nil, locale: Locale.current)
                    #expect(FetchSortDescriptor.compareStrings(a, b, selector) == foundation, "\(selector): \(a) against \(b)")
                }
            }
        }
    }
}
