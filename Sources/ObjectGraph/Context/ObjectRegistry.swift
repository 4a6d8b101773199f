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
/// This relies on an object's ID not changing while it is registered: the context unregisters
/// it before giving it a new ID (see `replaceObjectIDs`).
struct ObjectRegistry {
    /// Keys per page, a power of two: small enough that a page of scattered keys wastes
    /// little, large enough that the directory stays a few pages' size.
    static let pageSize = 32
    private static let pageBits = UInt64(pageSize.trailingZeroBitCount)

    /// A directory bucket: the page of keys `number * pageSize ..< (number + 1) * pageSize` of
    /// `scope`, or an empty bucket (`scope` `nil`).
    // @unchecked Sendable only so that the empty bucket can be a static constant: pages are
    // used on their context's queue only.
    private struct Page: @unchecked Sendable {
        /// The scope's address, compared by identity (scopes are interned and never freed).
        var scope: UnsafeMutableRawPointer?
        /// The key's bits above the page's.
        var number: UInt64
        /// The registered objects in this page, unretained, by the key's low bits.
        var objects: ContiguousArray<UnsafeMutableRawPointer?>
        /// How many of `objects` are set: the page goes when none is.
        var count: Int
    }

    private static let empty = Page(scope: nil, number: 0, objects: [], count: 0)

    private var pages: ContiguousArray<Page>
    /// `64 - log2(pages.count)`: a hash's top bits index the directory.
    private var shift: Int
    private var pageCount = 0
    private var count = 0

    init() {
        pages = ContiguousArray(repeating: Self.empty, count: 16)
        shift = 64 - 4
    }

    /// `id`'s page number (the key's high bits) and place in its page (the low bits).
    @inline(__always)
    private static func place(_ id: ManagedObjectID) -> (number: UInt64, index: Int) {
        let key = UInt64(bitPattern: id.primaryKey)
        return (key >> pageBits, Int(truncatingIfNeeded: key) & (pageSize - 1))
    }

    /// The bucket where the probe for page `number` of `scope` starts: one multiplication of
    /// the number moved by the scope's salt, so two entities' pages of equal keys fall apart.
    @inline(__always)
    private static func home(_ number: UInt64, salt: UInt64, shift: Int) -> Int {
        Int(truncatingIfNeeded: ((number &+ salt) &* 0x9E37_79B9_7F4A_7C15) >> UInt64(shift))
    }

    /// The bucket holding page `number` of `scope`, or the empty bucket where it would go.
    @inline(__always)
    private func findPage(_ number: UInt64, of scope: ObjectIDScope) -> (index: Int, found: Bool) {
        let address = Unmanaged.passUnretained(scope).toOpaque()
        let mask = pages.count - 1
        var index = Self.home(number, salt: scope.registrySalt, shift: shift)
        return pages.withUnsafeBufferPointer { buffer in
            while true {
                guard let occupant = buffer[index].scope else { return (index, false) }
                if occupant == address && buffer[index].number == number { return (index, true) }
                index = (index + 1) & mask
            }
        }
    }

    /// The object registered under `id`; setting `nil` unregisters it.
    subscript(id: ManagedObjectID) -> ManagedObject? {
        get {
            let (number, slot) = Self.place(id)
            let (index, found) = findPage(number, of: id.scope)
            guard found, let pointer = pages[index].objects[slot] else { return nil }
            return Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()
        }
        set {
            guard let newValue else {
                removeValue(forKey: id)
                return
            }
            assert(newValue.objectID == id, "ObjectGraph: an object is registered under its own ID only")
            let pointer = Unmanaged.passUnretained(newValue).toOpaque()
            let (number, slot) = Self.place(id)
            var (index, found) = findPage(number, of: id.scope)
            if !found {
                if (pageCount + 1) * 4 > pages.count * 3 {
                    grow(to: pages.count * 2)
                    index = findPage(number, of: id.scope).index
                }
                pages[index] = Page(
                    scope: Unmanaged.passUnretained(id.scope).toOpaque(),
                    number: number,
                    objects: ContiguousArray(repeating: nil, count: Self.pageSize),
                    count: 0
                )
                pageCount += 1
            }
            if pages[index].objects[slot] == nil {
                pages[index].count += 1
                count += 1
            }
            pages[index].objects[slot] = pointer
        }
    }

    /// The registered objects, in no particular order.
    var values: [ManagedObject] {
        var result: [ManagedObject] = []
        result.reserveCapacity(count)
        for page in pages where page.scope != nil {
            for case let pointer? in page.objects { result.append(Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()) }
        }
        return result
    }

    /// Unregisters `id`, returning its object if it was registered.
    @discardableResult
    mutating func removeValue(forKey id: ManagedObjectID) -> ManagedObject? {
        let (number, slot) = Self.place(id)
        let (index, found) = findPage(number, of: id.scope)
        guard found, let pointer = pages[index].objects[slot] else { return nil }
        clear(slot, ofPageAt: index)
        return Unmanaged<ManagedObject>.fromOpaque(pointer).takeUnretainedValue()
    }

    /// Unregisters `id` if `object` — being deinitialized — is what it holds (another object
    /// may have been registered under the ID since). No object is read on the way.
    mutating func forget(_ id: ManagedObjectID, deinitializing object: UnsafeMutableRawPointer) {
        let (number, slot) = Self.place(id)
        let (index, found) = findPage(number, of: id.scope)
        guard found, pages[index].objects[slot] == object else { return }
        clear(slot, ofPageAt: index)
    }

    mutating func removeAll() {
        self = ObjectRegistry()
    }

    /// Makes room for `additional` more objects of consecutive keys (a fetch's rows) without
    /// growing the directory on the way.
    mutating func reserveCapacity(forAdditional additional: Int) {
        let needed = pageCount + additional / Self.pageSize + 1
        guard needed * 4 > pages.count * 3 else { return }
        var capacity = pages.count
        while needed * 4 > capacity * 3 { capacity *= 2 }
        grow(to: capacity)
    }

    /// How many entries the table holds, for tests.
    var entryCount: Int { count }

    /// How many pages the directory holds, for tests.
    var pagesInUse: Int { pageCount }

    /// Empties `slot` of the page in bucket `index`, and the bucket when the page holds
    /// nothing more.
    private mutating func clear(_ slot: Int, ofPageAt index: Int) {
        pages[index].objects[slot] = nil
        pages[index].count -= 1
        count -= 1
        if pages[index].count == 0 { removePage(at: index) }
    }

    /// Empties directory bucket `index`, moving later buckets of its probe run back (no
    /// tombstones).
    private mutating func removePage(at index: Int) {
        let shift = shift
        pages.withUnsafeMutableBufferPointer { buffer in
            let mask = buffer.count - 1
            var hole = index
            var next = index
            while true {
                next = (next + 1) & mask
                guard let scope = buffer[next].scope else { break }
                let salt = Unmanaged<ObjectIDScope>.fromOpaque(scope)._withUnsafeGuaranteedRef { $0.registrySalt }
                let wanted = Self.home(buffer[next].number, salt: salt, shift: shift)
                // The page at `next` may move to `hole` unless its home lies cyclically in (hole, next].
                let stays = hole <= next ? (hole < wanted && wanted <= next) : (hole < wanted || wanted <= next)
                if !stays {
                    buffer.swapAt(hole, next)
                    hole = next
                }
            }
            buffer[hole] = Self.empty
        }
        pageCount -= 1
    }

    /// Moves every page into a directory of `capacity` buckets.
    private mutating func grow(to capacity: Int) {
        var grown = ContiguousArray(repeating: Self.empty, count: capacity)
        let shift = 64 - capacity.trailingZeroBitCount
        let mask = capacity - 1
        grown.withUnsafeMutableBufferPointer { buffer in
            for page in pages {
                guard let scope = page.scope else { continue }
                let salt = Unmanaged<ObjectIDScope>.fromOpaque(scope)._withUnsafeGuaranteedRef { $0.registrySalt }
                var index = Self.home(page.number, salt: salt, shift: shift)
                while buffer[index].scope != nil { index = (index + 1) & mask }
                buffer[index] = page
            }
        }
        pages = grown
        self.shift = shift
    }
}
