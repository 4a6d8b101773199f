/// An immutable map from names to values for hot lookups by name (a property's slot by key,
/// an entity by name): open addressing on an FNV-1a hash of the UTF-8 bytes, several times
/// cheaper than `Dictionary<String, _>`'s seeded SipHash for the short keys of a model.
///
/// Lookups first try the name's raw representation (its two words): a key with the very
/// representation of a stored name — a short name, which Swift stores inline, or the same
/// string buffer — is found without reading its characters, which is what the accessors
/// `@Managed` generates do with their literal keys. Equal representations mean equal strings:
/// inline strings hold their characters, and a shared buffer cannot change under its sharers.
struct NameTable<Element> {
    private var names: [String?]
    private var elements: [Element?]
    private var rawNames: [RawString]
    private var rawElements: [Element?]
    private let mask: Int

    /// A string's two words, as stored.
    private typealias RawString = (UInt64, UInt64)

    /// A table of `pairs`; the first of duplicate names wins.
    init(_ pairs: [(String, Element)]) {
        var capacity = 8
        while capacity < pairs.count * 2 { capacity *= 2 }
        names = Array(repeating: nil, count: capacity)
        elements = Array(repeating: nil, count: capacity)
        mask = capacity - 1
        rawNames = Array(repeating: (0, 0), count: capacity)
        rawElements = Array(repeating: nil, count: capacity)
        for (name, element) in pairs {
            let raw = Self.raw(name)
            var index = Self.hash(raw) & mask
            while rawElements[index] != nil {
                if rawNames[index] == raw { break }
                index = (index + 1) & mask
            }
            if rawElements[index] == nil {
                rawNames[index] = raw
                rawElements[index] = element
            }
        }
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
        let raw = Self.raw(name)
        var rawIndex = Self.hash(raw) & mask
        while let element = rawElements[rawIndex] {
            if rawNames[rawIndex] == raw { return element }
            rawIndex = (rawIndex + 1) & mask
        }
        return lookUp(byCharacters: name)
    }

    /// The element named `name`, found by hashing its characters.
    private func lookUp(byCharacters name: String) -> Element? {
        var index = Self.hash(name) & mask
        while let existing = names[index] {
            if existing == name { return elements[index] }
            index = (index + 1) & mask
        }
        return nil
    }

    @inline(__always)
    private static func raw(_ name: String) -> RawString {
        unsafeBitCast(name, to: RawString.self)
    }

    @inline(__always)
    private static func hash(_ raw: RawString) -> Int {
        let mixed = (raw.0 ^ (raw.1 &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9
        return Int(truncatingIfNeeded: mixed >> 32)
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
