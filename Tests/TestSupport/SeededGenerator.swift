/// A small, seeded, reproducible random number generator (SplitMix64), so a property test that
/// fails names a seed that fails again.
public struct SeededGenerator: RandomNumberGenerator {
    /// The generator's whole state: the seed, advanced by every draw.
    public var state: UInt64

    /// A generator starting at `state`.
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
