@testable import LifeSignalBroker
@testable import LifeSignalLimits
import Testing

@Suite struct KeyedRateLimiterTests {
    @Test func failuresAreChargedAfterAndCheckedBefore() {
        // Three failed adds a minute, as `failedAddsPerMinute` = 3 makes it.
        var limiter = KeyedRateLimiter<String>(ratePerSecond: 3.0 / 60, burst: 3)
        #expect(limiter.hasToken("alice", nowMs: 0))
        #expect(limiter.count == 0)  // checking remembers nothing
        for _ in 0..<3 { _ = limiter.take("alice", nowMs: 0) }
        #expect(!limiter.hasToken("alice", nowMs: 0))
        #expect(!limiter.hasToken("alice", nowMs: 19_999))
        #expect(limiter.hasToken("alice", nowMs: 20_000))
        #expect(limiter.hasToken("bob", nowMs: 0))
    }

    @Test func hasTokenAgreesWithTake() {
        let rate = TokenBucket.Rate(ratePerSecond: 10, burst: 2)
        var bucket = TokenBucket()
        for now: UInt64 in [0, 0, 0, 50, 100, 100, 250, 250, 250] {
            let expected = bucket.hasToken(nowMs: now, rate: rate)
            let taken = bucket.take(nowMs: now, rate: rate)
            #expect(taken == expected)
        }
    }
}
