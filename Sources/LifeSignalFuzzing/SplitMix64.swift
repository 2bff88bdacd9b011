/// A small deterministic PRNG (Steele, Lea, Flood 2014): the same seed gives the same run on every
/// machine and toolchain, which `SystemRandomNumberGenerator` and the stdlib's `random(in:)` do not.
public struct SplitMix64: RandomNumberGenerator {
    /// The seed it started from, to print with a failure so the run can be repeated.
    public let seed: UInt64
    private var state: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A value in `0..<bound` (the modulo bias is irrelevant here).
    mutating func below(_ bound: Int) -> Int {
        precondition(bound > 0)
        return Int(next() % UInt64(bound))
    }

    mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        below(denominator) < numerator
    }

    mutating func element<C: Collection>(of collection: C) -> C.Element where C.Index == Int {
        collection[collection.startIndex + below(collection.count)]
    }

    /// FNV-1a of the bytes: derives a PRNG seed from a fuzz input, so that split points and limits
    /// are input-derived (libFuzzer mutates them along with the data) yet reproducible.
    static func seed(from bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
        }
        return hash
    }
}
