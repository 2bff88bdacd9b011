/// A token's SHA-256 hash as the session keeps it: 32 bytes inline. Every loaded user holds one,
/// and as an array it was a heap block of 64 bytes besides the reference (heaptrack, idle devices).
package struct TokenHash: Sendable {
    private let words: (UInt64, UInt64, UInt64, UInt64)

    /// Nil unless `bytes` is a SHA-256 hash (32 bytes): such a stored value matches no token.
    package init?(_ bytes: [UInt8]) {
        guard bytes.count == 32 else { return nil }
        func word(_ at: Int) -> UInt64 { bytes[at..<(at + 8)].reduce(0) { $0 << 8 | UInt64($1) } }
        words = (word(0), word(8), word(16), word(24))
    }

    /// Constant-time: the time taken does not depend on where the hashes first differ.
    package func matches(_ other: TokenHash) -> Bool {
        let difference = (words.0 ^ other.words.0) | (words.1 ^ other.words.1)
            | (words.2 ^ other.words.2) | (words.3 ^ other.words.3)
        return difference == 0
    }
}
