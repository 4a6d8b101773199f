import Foundation

/// A small deterministic random source (SplitMix64).
///
/// The standard library's generators and `Hasher` are seeded per process, so they could never
/// give the "same scene ⇒ same bytes" guarantee; this one depends on nothing but its seed.
struct PostcardRandom {
    /// The generator's whole state.
    private var state: UInt64

    /// A generator for `seed`, decorrelated from generators of nearby seeds by `stream`.
    init(seed: UInt64, stream: UInt64 = 0) {
        state = seed ^ (stream &* 0xD1B5_4A32_D192_ED03)
        _ = next()
    }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A uniform value in 0..<1.
    mutating func unit() -> Float {
        Float(next() >> 40) / Float(1 << 24)
    }

    /// A uniform value in `low..<high`.
    mutating func float(_ low: Float, _ high: Float) -> Float {
        low + (high - low) * unit()
    }

    /// A uniform integer in `0..<count` (0 when `count` is not positive).
    mutating func int(_ count: Int) -> Int {
        count <= 0 ? 0 : Int(next() % UInt64(count))
    }

    /// True with probability `p`.
    mutating func chance(_ p: Float) -> Bool {
        unit() < p
    }

    /// A stable 64-bit hash of `text` (FNV-1a), for folding names into seeds across processes.
    static func hash(_ text: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return h
    }
}
