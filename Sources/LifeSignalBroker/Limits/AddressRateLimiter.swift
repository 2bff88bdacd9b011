import LifeSignalUV

/// One token bucket per source address: an IPv4 address, or an IPv6 /64 (what one subscriber
/// is usually given, so one host cannot dodge the limit by hopping inside it).
///
/// Bounded: a bucket that has refilled is the same as none and is dropped when the table has
/// doubled since the last sweep (amortized O(1)); past `maxEntries` live buckets, new addresses
/// are refused until some refill.
struct AddressRateLimiter: Sendable {
    static let maxEntries = 100_000

    private let template: TokenBucket
    private var buckets: [IPAddress: TokenBucket] = [:]
    private var sweepAt = 1_024

    init(ratePerSecond: Double, burst: Int) {
        template = TokenBucket(ratePerSecond: ratePerSecond, burst: burst)
    }

    var count: Int { buckets.count }

    /// Takes a token for `address` at `nowMs`; false when its bucket is empty.
    mutating func take(_ address: IPAddress, nowMs: UInt64) -> Bool {
        guard template.isEnabled else { return true }
        let key = Self.key(address)
        if let index = buckets.index(forKey: key) { return buckets.values[index].take(nowMs: nowMs) }
        if buckets.count >= sweepAt {
            buckets = buckets.filter { !$0.value.isFull(nowMs: nowMs) }
            sweepAt = max(1_024, 2 * buckets.count)
        }
        guard buckets.count < Self.maxEntries else { return false }
        var bucket = template
        let taken = bucket.take(nowMs: nowMs)
        buckets[key] = bucket
        return taken
    }

    /// The address a bucket belongs to: IPv4 whole, IPv6 cut to its /64.
    static func key(_ address: IPAddress) -> IPAddress {
        address.isIPv4 ? address : IPAddress(high: address.high, low: 0)
    }
}
