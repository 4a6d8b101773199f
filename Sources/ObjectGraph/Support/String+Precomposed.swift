import Foundation

extension String {
    /// The string in Unicode Normalization Form C, as ObjectGraph stores, binds and compares
    /// strings (so that SQLite's byte comparisons agree with Swift's `==`): the same as
    /// `precomposedStringWithCanonicalMapping`, without its cost for an ASCII string, which is
    /// its own NFC. Foundation's mapping costs ~12,000 instructions for a page of text, on
    /// every string an import sets.
    var precomposed: String {
        if utf8.allSatisfy({ $0 < 0x80 }) { return self }
        return precomposedStringWithCanonicalMapping
    }
}
