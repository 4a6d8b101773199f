/// A context's objects by ID, held weakly, as Core Data's contexts hold them: an object nobody
/// holds goes away (a later `object(with:)` makes a new one), while one object per ID exists as
/// long as anyone holds it (uniquing).
///
/// Objects with unsaved changes are held strongly elsewhere (the context's changed objects), so
/// they stay registered until saved or rolled back.
///
/// Entries are unretained references, and an object removes its own entry when it is
/// deinitialized (`ManagedObject.deinit`), so every entry is alive. This relies on the rule
/// that objects are used — and so released — on their context's queue only; it spares every
/// object a Swift weak reference (a side-table allocation each) and the table periodic sweeps.
///
/// Objects are kept by primary key, in pages: a page holds the objects of ``pageSize``
/// consecutive keys of one scope (store and entity), at the key's low bits, and a small
/// open-addressed directory finds a page by its scope and the key's high bits. Registering an
/// object writes one pointer into its page, releasing it clears one: no ID is hashed, no
/// object is read on the way (the page is its scope's, the place its key's), and nothing is
/// moved. Objects come and go in key order (a fetch's rows, an import's inserts, a save's
/// releases), so consecutive objects share a page, and a context holding a million objects
/// of consecutive keys keeps 8 bytes a key of pages and ~2 bytes of directory — where a table
/// of key and pointer entries, at most three quarters full, kept 32. Keys far apart cost a
/// page each (~300 bytes): a context of scattered keys pays for that.
///
/// The directory and the pages are plain memory, not arrays: reading or writing an entry
/// checks no uniqueness and retains nothing. The last page found is remembered (consecutive
/// keys find it without a probe), and emptied pages are kept for reuse up to
/// ``sparePageLimit`` (a fetch's objects, freed together, give their pages to the next fetch).
///
/// This relies on an object's ID not changing while it is registered: the context unregisters
/// it before giving it a new ID (see `replaceObjectIDs`).
struct ObjectRegistry: ~Copyable {
    /// Keys per page, a power of two: small enough that a page of scattered keys wastes
    /// little, large enough that the directory stays a few pages' size.
    static let pageSize = 32
    private static let pageBits = UInt64(pageSize.trailingZeroBitCount)
    /// Emptied pages kept for reuse at most (8 KiB): enough that a page emptied and filled
    /// again, or a fetch's pages freed before the next fetch, cost no allocation.
    static let sparePageLimit = 32

    private typealias Slots = UnsafeMutablePointer<UnsafeMutableRawPointer?>

    /// A directory bucket: the page of keys `number * pageSize ..< (number + 1) * pageSize` of
    /// `scope`, or an empty bucket (`scope` `nil`).
    private struct Page {
        /// The scope's address, compared by identity (scopes are interned and never freed).
        var scope: UnsafeMutableRawPointer?
        /// The key's bits above the page's.
        var number: UInt64
        /// The registered objects in this page, unretained, by the key's low bits
        /// (``pageSize`` of them; unset in an empty bucket).
        var objects: Slots?
        /// How many of `objects` are set: the page goes when none is.
        var count: Int
    }

    private var pages: UnsafeMutablePointer<Page>
    private var capacity: Int
    /// `64 - log2(capacity)`: a hash's top bits index the directory.
    private var shift: Int
    private var pageCount = 0
    private var count = 0
    /// The bucket of the page found last; checked before probing (its page may have moved or
    /// gone since, which the check sees).
    private var lastIndex = 0
    /// Emptied pages kept for reuse, chained through their first slot.
    private var spare: Slots?
    private var spareCount = 0

    init() {
        capacity = 16
        shift = 64 - 4
        pages = .allocate(capacity: capacity)
        pages.initialize(repeating: Page(scope: nil, number: 0, objects: nil, count: 0), count: capacity)
    }

    deinit {
        for index in 0..<capacity {
            if pages[index].scope != nil { pages[index].objects.unsafelyUnwrapped.deallocate() }
        }
        pages.deallocate()
        var next = spare
        while let page = next {
            next = page[0].map { $0.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) }
            page.deallocate()
        }
    }

    /// `id`'s scope's address, its page number (the key's high bits) and place in its page (the
    /// low bits). The scope is read as the ID's bits: loading the `unowned(unsafe)` reference
    /// as a strong one would cost a retain and a release on every call.
    @inline(__always)
    private static func place(_ id: ManagedObjectID) -> (scope: UnsafeMutableRawPointer, number: UInt64, index: Int) {
        let bits = unsafeBitCast(id, to: (scope: UnsafeMutableRawPointer, primaryKey: Int64).self)
        assert(bits.scope == Unmanaged.passUnretained(id.scope).toOpaque() && bits.primaryKey == id.primaryKey)
        let key = UInt64(bitPattern: bits.primaryKey)
        return (bits.scope, key >> pageBits, Int(truncatingIfNeeded: key) & (pageSize - 1))
    }

    /// The registry salt of the scope at `address`.
    @inline(__always)
    private static func salt(_ address: UnsafeMutableRawPointer) -> UInt64 {
        Unmanaged<ObjectIDScope>.fromOpaque(address)._withUnsafeGuaranteedRef { $0.registrySalt }
    }

    /// The bucket where the probe for page `number` of `scope` starts: one multiplication of
    /// the number moved by the scope's salt, so two entities' pages of equal keys fall apart.
    @inline(__always)
    private static func home(_ number: UInt64, salt: UInt64, shift: Int) -> Int {
        Int(truncatingIfNeeded: ((number &+ salt) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The bucket holding page `number` of the scope at `address`, or the empty bucket where it
    /// would go; the page found is remembered.
    @inline(__always)
    private mutating func findPage(_ number: UInt64, of address: UnsafeMutableRawPointer) -> (index: Int, found: Bool) {
        if pages[lastIndex].scope == address && pages[lastIndex].number == number { return (lastIndex, true) }
        return probe(number, of: address)
    }

    private mutating func probe(_ number: UInt64, of address: UnsafeMutableRawPointer) -> (index: Int, found: Bool) {
        let mask = capacity - 1
        var index = Self.home(number, salt: Self.salt(address), shift: shift)
        while true {
            guard let occupant = pages[index].scope else { return (index, false) }
            if occupant == address && pages[index].number == number {
                lastIndex = index
                return (index, true)
            }
            index = (index + 1) & mask
        }
    }

    /// The object registered under `id`; setting `nil` unregisters it.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        @inline(__always) mutating get {
            let (scope, number, slot) = Self.place(id)
            let (index, found) = findPage(number, of: scope)
            guard found, let pointer = pages[index].objects.unsafelyUnwrapped[slot] else { return nil }
            return Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            guard let newValue else {
                removeValue(forKey: id)
                return
            }
            assert(newValue.objectID == id, "ObjectGraph: an object is registered under its own ID only")
            let pointer = Unmanaged.passUnretained(newValue).toOpaque()
            let (scope, number, slot) = Self.place(id)
            var (index, found) = findPage(number, of: scope)
            if !found {
                if (pageCount + 1) * 4 > capacity * 3 {
                    grow(to: capacity * 2)
                    index = findPage(number, of: scope).index
                }
                pages[index] = Page(
                    scope: scope,
                    number: number,
                    objects: newPage(),
                    count: 0
                )
                pageCount += 1
                lastIndex = index
            }
            let objects = pages[index].objects.unsafelyUnwrapped
            if objects[slot] == nil {
                pages[index].count += 1
                count += 1
            }
            objects[slot] = pointer
        }
    }

    /// The registered objects, in no particular order.
    var values: [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for index in 0..<capacity {
            guard pages[index].scope != nil, let objects = pages[index].objects else { continue }
            for slot in 0..<Self.pageSize {
                if let pointer = objects[slot] { result.append(Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()) }
            }
        }
        return result
    }

    /// Unregisters `id`, returning its object if it was registered.
    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        let (scope, number, slot) = Self.place(id)
        let (index, found) = findPage(number, of: scope)
        guard found, let pointer = pages[index].objects.unsafelyUnwrapped[slot] else { return nil }
        clear(slot, ofPageAt: index)
        return Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Unregisters `id` if `object` — being deinitialized — is what it holds (another object
    /// may have been registered under the ID since). No object is read on the way.
    mutating func forget(_ id: ManagedObjectID, deinitializing object: UnsafeMutableRawPointer) {
        let (scope, number, slot) = Self.place(id)
        let (index, found) = findPage(number, of: scope)
        guard found, pages[index].objects.unsafelyUnwrapped[slot] == object else { return }
        clear(slot, ofPageAt: index)
    }

    mutating func removeAll() {
        self = ObjectRegistry()
    }

    /// Makes room for `additional` more objects of consecutive keys (a fetch's rows) without
    /// growing the directory on the way.
    mutating func reserveCapacity(forAdditional additional: Int) {
        let needed = pageCount + additional / Self.pageSize + 1
        guard needed * 4 > capacity * 3 else { return }
        var grown = capacity
        while needed * 4 > grown * 3 { grown *= 2 }
        grow(to: grown)
    }

    /// How many entries the table holds, for tests.
    var entryCount: Int { count }

    /// How many pages the directory holds, for tests.
    var pagesInUse: Int { pageCount }

    /// An empty page: a spare one if any, else a new one.
    private mutating func newPage() -> Slots {
        let page: Slots
        if let reused = spare {
            spare = reused[0].map { $0.assumingMemoryBound(to: UnsafeMutableRawPointer?.self) }
            spareCount -= 1
            page = reused
        } else {
            page = .allocate(capacity: Self.pageSize)
        }
        page.initialize(repeating: nil, count: Self.pageSize)
        return page
    }

    /// Keeps an emptied page for reuse, or frees it when enough are kept.
    private mutating func release(_ page: Slots) {
        guard spareCount < Self.sparePageLimit else {
            page.deallocate()
            return
        }
        page[0] = spare.map { UnsafeMutableRawPointer($0) }
        spare = page
        spareCount += 1
    }

    /// Empties `slot` of the page in bucket `index`, and the bucket when the page holds
    /// nothing more.
    private mutating func clear(_ slot: Int, ofPageAt index: Int) {
        pages[index].objects.unsafelyUnwrapped[slot] = nil
        pages[index].count -= 1
        count -= 1
        if pages[index].count == 0 { removePage(at: index) }
    }

    /// Empties directory bucket `index`, moving later buckets of its probe run back (no
    /// tombstones).
    private mutating func removePage(at index: Int) {
        release(pages[index].objects.unsafelyUnwrapped)
        let mask = capacity - 1
        var hole = index
        var next = index
        while true {
            next = (next + 1) & mask
            guard let scope = pages[next].scope else { break }
            let wanted = Self.home(pages[next].number, salt: Self.salt(scope), shift: shift)
            // The page at `next` may move to `hole` unless its home lies cyclically in (hole, next].
            let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
            if !stays {
                pages[hole] = pages[next]
                hole = next
            }
        }
        pages[hole] = Page(scope: nil, number: 0, objects: nil, count: 0)
        pageCount -= 1
    }

    /// Moves every page into a directory of `newCapacity` buckets.
    private mutating func grow(to newCapacity: Int) {
        let grown = UnsafeMutablePointer<Page>.allocate(capacity: newCapacity)
        grown.initialize(repeating: Page(scope: nil, number: 0, objects: nil, count: 0), count: newCapacity)
        let shift = 64 - newCapacity.trailingZeroBitCount
        let mask = newCapacity - 1
        for old in 0..<capacity {
            guard let scope = pages[old].scope else { continue }
            var index = Self.home(pages[old].number, salt: Self.salt(scope), shift: shift)
            while grown[index].scope != nil { index = (index + 1) & mask }
            grown[index] = pages[old]
        }
        pages.deallocate()
        pages = grown
        capacity = newCapacity
        self.shift = shift
        lastIndex = 0
    }
}
