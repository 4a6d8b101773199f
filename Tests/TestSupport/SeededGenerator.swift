public import Flickr

/// The tests' seeded, reproducible random number generator: Flickr's `SplitMix64`, the one the
/// app already uses for jitter and fault injection, so a property test that fails names a seed
/// that fails again.
public typealias SeededGenerator = SplitMix64
