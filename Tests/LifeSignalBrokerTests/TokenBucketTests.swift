@testable import LifeSignalBroker
@testable import LifeSignalLimits
import Testing

@Suite struct TokenBucketTests {
    /// How many of `count` takes at `nowMs` succeed.
    private func takes(_ bucket: inout TokenBucket, _ rate: TokenBucket.Rate, _ count: Int, at nowMs: UInt64) -> Int {
        (0..<count).filter { _ in bucket.take(nowMs: nowMs, rate: rate) }.count
    }

    @Test func aFullBucketGivesItsBurstAtOnceThenNothing() {
        let rate = TokenBucket.Rate(ratePerSecond: 200, burst: 400)
        var bucket = TokenBucket()
        #expect(takes(&bucket, rate, 450, at: 1_000) == 400)
        #expect(takes(&bucket, rate, 1, at: 1_000) == 0)
    }

    @Test func tokensComeBackAtTheRate() {
        let rate = TokenBucket.Rate(ratePerSecond: 200, burst: 400)
        var bucket = TokenBucket()
        #expect(takes(&bucket, rate, 400, at: 0) == 400)
        // 200/s is one token every 5 ms.
        #expect(takes(&bucket, rate, 10, at: 4) == 0)
        #expect(takes(&bucket, rate, 10, at: 5) == 1)
        #expect(takes(&bucket, rate, 10, at: 55) == 10)
        // A second later: 200 more, not 400.
        #expect(takes(&bucket, rate, 1_000, at: 1_055) == 200)
    }

    @Test func aSteadyRateAtTheLimitIsNeverRefused() {
        let rate = TokenBucket.Rate(ratePerSecond: 200, burst: 1)
        var bucket = TokenBucket()
        let refused = (0..<1_000).filter { tick in !bucket.take(nowMs: UInt64(tick) * 5, rate: rate) }
        #expect(refused.isEmpty)
        #expect(takes(&bucket, rate, 1, at: 4_995) == 0)
    }

    @Test func anIdleBucketRefillsOnlyToItsBurst() {
        let rate = TokenBucket.Rate(ratePerSecond: 1, burst: 60)
        var bucket = TokenBucket()
        #expect(takes(&bucket, rate, 60, at: 0) == 60)
        #expect(!bucket.isFull(nowMs: 59_000))
        #expect(bucket.isFull(nowMs: 60_000))
        #expect(takes(&bucket, rate, 100, at: 3_600_000) == 60)
    }

    @Test func fractionalRates() {
        let rate = TokenBucket.Rate(ratePerSecond: 0.5, burst: 1)
        var bucket = TokenBucket()
        #expect(takes(&bucket, rate, 1, at: 0) == 1)
        #expect(takes(&bucket, rate, 1, at: 1_999) == 0)
        #expect(takes(&bucket, rate, 1, at: 2_000) == 1)
    }

    @Test func rateZeroIsOff() {
        let rate = TokenBucket.Rate(ratePerSecond: 0, burst: 1)
        var bucket = TokenBucket()
        #expect(!rate.isEnabled)
        #expect(takes(&bucket, rate, 100_000, at: 7) == 100_000)
    }

    @Test func aTakeThatIsRefusedTakesNothing() {
        let rate = TokenBucket.Rate(ratePerSecond: 10, burst: 2)
        var bucket = TokenBucket()
        #expect(takes(&bucket, rate, 2, at: 0) == 2)
        // Hammering while empty does not push the refill further away.
        #expect(takes(&bucket, rate, 1_000, at: 50) == 0)
        #expect(takes(&bucket, rate, 1, at: 100) == 1)
    }
}
