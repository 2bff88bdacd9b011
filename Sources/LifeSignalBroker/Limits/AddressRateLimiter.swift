import LifeSignalLimits
import LifeSignalUV

/// One token bucket per source address: an IPv4 address, or an IPv6 /64 (what one subscriber
/// is usually given, so one host cannot dodge the limit by hopping inside it). Bounded like
/// every `KeyedRateLimiter`.
struct AddressRateLimiter: Sendable {
    private var limiter: KeyedRateLimiter<IPAddress>

    init(ratePerSecond: Double, burst: Int) {
        limiter = KeyedRateLimiter(ratePerSecond: ratePerSecond, burst: burst)
    }

    var count: Int { limiter.count }

    /// Takes a token for `address` at `nowMs`; false when its bucket is empty.
    mutating func take(_ address: IPAddress, nowMs: UInt64) -> Bool {
        limiter.take(Self.key(address), nowMs: nowMs)
    }

    /// Whether `take` would succeed now, without taking.
    func hasToken(_ address: IPAddress, nowMs: UInt64) -> Bool {
        limiter.hasToken(Self.key(address), nowMs: nowMs)
    }

    /// The address a bucket belongs to: IPv4 whole, IPv6 cut to its /64.
    static func key(_ address: IPAddress) -> IPAddress {
        address.isIPv4 ? address : IPAddress(high: address.high, low: 0)
    }
}
