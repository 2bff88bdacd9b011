/// A token bucket of `burst` tokens refilled at `ratePerSecond`, kept as the time it will be
/// full again (GCRA, the "virtual scheduling" form): one compare, one max and one add per
/// request, no timer and no clock read of its own. Callers pass the loop's cached time, and
/// the `Rate`, which every bucket of one limit shares: a bucket is one word (a connection per
/// device has one).
///
/// A rate of 0 disables it: every `take` succeeds (so does a rate above 2,000,000/s, whose
/// interval rounds to 0 µs).
package struct TokenBucket: Sendable {
    package struct Rate: Sendable {
        /// Time one token takes to come back, in microseconds; 0 when the limit is off.
        package let intervalUs: UInt64
        /// How far past now a bucket's schedule may run ahead: `burst − 1` intervals.
        package let toleranceUs: UInt64

        package init(ratePerSecond: Double, burst: Int) {
            precondition(ratePerSecond >= 0 && ratePerSecond.isFinite && burst >= 1, "rate >= 0 and burst >= 1")
            intervalUs = ratePerSecond == 0 ? 0 : UInt64((1_000_000 / ratePerSecond).rounded())
            toleranceUs = intervalUs &* UInt64(burst - 1)
        }

        package var isEnabled: Bool { intervalUs != 0 }
    }

    /// When the bucket is full again; at or before now it is full.
    @usableFromInline var fullAtUs: UInt64 = 0

    package init() {}

    /// Takes one token at `nowMs`; false (and nothing taken) when the bucket is empty.
    @inlinable
    package mutating func take(nowMs: UInt64, rate: Rate) -> Bool {
        let now = nowMs &* 1000
        let start = max(fullAtUs, now)
        guard start &- now <= rate.toleranceUs else { return false }
        fullAtUs = start &+ rate.intervalUs
        return true
    }

    /// Whether `take` would succeed at `nowMs` (nothing is taken).
    package func hasToken(nowMs: UInt64, rate: Rate) -> Bool {
        let now = nowMs &* 1000
        return max(fullAtUs, now) &- now <= rate.toleranceUs
    }

    /// True when the bucket has refilled completely by `nowMs`: it then remembers nothing a
    /// fresh bucket would not, so a table of buckets may drop it.
    package func isFull(nowMs: UInt64) -> Bool { fullAtUs <= nowMs &* 1000 }
}
