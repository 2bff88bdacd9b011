/// One token bucket per key (a source address, a user), all alike.
///
/// Bounded: a bucket that has refilled is the same as none and is dropped when the table has
/// doubled since the last sweep (amortized O(1)); past `maxEntries` live buckets, new keys are
/// refused until some refill.
package struct KeyedRateLimiter<Key: Hashable & Sendable>: Sendable {
    package static var maxEntries: Int { 100_000 }

    private let rate: TokenBucket.Rate
    private var buckets: [Key: TokenBucket] = [:]
    private var sweepAt = 1_024

    package init(ratePerSecond: Double, burst: Int) {
        rate = TokenBucket.Rate(ratePerSecond: ratePerSecond, burst: burst)
    }

    package var isEnabled: Bool { rate.isEnabled }
    package var count: Int { buckets.count }

    /// Takes a token for `key` at `nowMs`; false when its bucket is empty.
    package mutating func take(_ key: Key, nowMs: UInt64) -> Bool {
        guard rate.isEnabled else { return true }
        if let index = buckets.index(forKey: key) { return buckets.values[index].take(nowMs: nowMs, rate: rate) }
        if buckets.count >= sweepAt {
            buckets = buckets.filter { !$0.value.isFull(nowMs: nowMs) }
            sweepAt = max(1_024, 2 * buckets.count)
        }
        guard buckets.count < Self.maxEntries else { return false }
        var bucket = TokenBucket()
        let taken = bucket.take(nowMs: nowMs, rate: rate)
        buckets[key] = bucket
        return taken
    }

    /// Whether `take` would succeed now, without taking: for limits that count only failures,
    /// checked before the request runs and charged after it failed.
    package func hasToken(_ key: Key, nowMs: UInt64) -> Bool {
        buckets[key]?.hasToken(nowMs: nowMs, rate: rate) ?? true
    }
}
