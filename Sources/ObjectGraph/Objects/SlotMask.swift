/// A set of slot numbers, allocation-free for entities with up to 64 properties.
struct SlotMask: Equatable {
    private(set) var low: UInt64 = 0
    private(set) var high: [UInt64] = []

    init() {}

    init(low: UInt64, high: [UInt64]) {
        self.low = low
        self.high = high
    }

    var isEmpty: Bool { low == 0 && high.allSatisfy { $0 == 0 } }

    // The first 64 slots (nearly every entity's all) inline at every call: a setter inserts
    // one, and an insert marks each set default.
    @inline(__always)
    func contains(_ slot: Int) -> Bool {
        if slot < 64 { return low & (1 << UInt64(slot)) != 0 }
        let word = slot / 64 - 1
        return word < high.count && high[word] & (1 << UInt64(slot % 64)) != 0
    }

    @inline(__always)
    mutating func insert(_ slot: Int) {
        if slot < 64 {
            low |= 1 << UInt64(slot)
            return
        }
        insertHigh(slot)
    }

    @inline(never)
    private mutating func insertHigh(_ slot: Int) {
        let word = slot / 64 - 1
        while high.count <= word { high.append(0) }
        high[word] |= 1 << UInt64(slot % 64)
    }

    mutating func remove(_ slot: Int) {
        if slot < 64 {
            low &= ~(1 << UInt64(slot))
            return
        }
        let word = slot / 64 - 1
        if word < high.count { high[word] &= ~(1 << UInt64(slot % 64)) }
    }

    mutating func removeAll() {
        low = 0
        high = []
    }

    /// Adds every slot of `other`.
    mutating func formUnion(_ other: SlotMask) {
        low |= other.low
        for (word, bits) in other.high.enumerated() where bits != 0 {
            while high.count <= word { high.append(0) }
            high[word] |= bits
        }
    }

    /// The slots in ascending order.
    var slots: [Int] {
        var result: [Int] = []
        var bits = low
        while bits != 0 {
            result.append(bits.trailingZeroBitCount)
            bits &= bits - 1
        }
        for (index, word) in high.enumerated() {
            var bits = word
            while bits != 0 {
                result.append((index + 1) * 64 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
        }
        return result
    }
}
