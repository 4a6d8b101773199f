/// A small, fast, seedable random-number generator (SplitMix64).
///
/// The same seed always produces the same sequence, on every platform, so jitter, fault
/// injection and generated secrets are reproducible. Not for cryptography.
///
/// ```swift
/// var random = SplitMix64(seed: 42)
/// let jitter = Double.random(in: 0..<1, using: &random)
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64

    /// Creates a generator whose sequence is fully determined by `seed`.
    public init(seed: UInt64) {
        self.state = seed
    }

    /// Returns the next value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
