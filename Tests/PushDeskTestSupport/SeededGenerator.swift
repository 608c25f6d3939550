import Foundation

/// SplitMix64: a small generator whose whole sequence follows from its seed, so a failing
/// random test can be run again exactly (`PUSHDESK_TEST_SEED`).
public struct SeededGenerator: RandomNumberGenerator {
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    /// The seed in `PUSHDESK_TEST_SEED`, else a fresh one.
    public static func fromEnvironment() -> SeededGenerator {
        SeededGenerator(
            seed: ProcessInfo.processInfo.environment["PUSHDESK_TEST_SEED"].flatMap(UInt64.init)
                ?? UInt64.random(in: 0...UInt64.max))
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
