/// An IPv4 or IPv6 address without its port, kept as the 128 bits of its IPv6 form: IPv4
/// `a.b.c.d` is `::ffff:a.b.c.d`, so a dual-stack listener sees one address either way.
public struct IPAddress: Hashable, Sendable {
    /// The first and last 64 bits, big-endian.
    public let high: UInt64
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// From the 16 bytes of the IPv6 form, network order.
    init(bytes: [UInt8]) {
        precondition(bytes.count == 16)
        high = bytes[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// The 16 bytes of the IPv6 form, network order: the inverse of `init(bytes:)`.
    var bytes: [UInt8] {
        (0..<16).map { index in
            let word = index < 8 ? high : low
            return UInt8(truncatingIfNeeded: word >> UInt64(56 - 8 * (index % 8)))
        }
    }

    public var isIPv4: Bool { high == 0 && low >> 32 == 0xffff }
}
