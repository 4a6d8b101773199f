/// An immutable map from names to values for hot lookups by name (a property's slot by key,
/// an entity by name): open addressing on an FNV-1a hash of the UTF-8 bytes, several times
/// cheaper than `Dictionary<String, _>`'s seeded SipHash for the short keys of a model.
struct NameTable<Element> {
    private var names: [String?]
    private var elements: [Element?]
    private let mask: Int

    /// A table of `pairs`; the first of duplicate names wins.
    init(_ pairs: [(String, Element)]) {
        var capacity = 8
        while capacity < pairs.count * 2 { capacity *= 2 }
        names = Array(repeating: nil, count: capacity)
        elements = Array(repeating: nil, count: capacity)
        mask = capacity - 1
        for (name, element) in pairs {
            var index = Self.hash(name) & mask
            while let existing = names[index] {
                if existing == name { break }
                index = (index + 1) & mask
            }
            if names[index] == nil {
                names[index] = name
                elements[index] = element
            }
        }
    }

    /// An empty table.
    init() { self.init([]) }

    /// The element named `name`, or `nil`.
    @inline(__always)
    subscript(name: String) -> Element? {
        var index = Self.hash(name) & mask
        while let existing = names[index] {
            if existing == name { return elements[index] }
            index = (index + 1) & mask
        }
        return nil
    }

    @inline(__always)
    private static func hash(_ name: String) -> Int {
        var name = name
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
            }
            return Int(truncatingIfNeeded: hash ^ (hash >> 32))
        }
    }
}

extension NameTable: Sendable where Element: Sendable {}
