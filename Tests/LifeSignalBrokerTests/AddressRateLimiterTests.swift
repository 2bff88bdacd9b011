@testable import LifeSignalBroker
import LifeSignalUV
import Testing

@Suite struct AddressRateLimiterTests {
    private func ipv4(_ a: UInt64, _ b: UInt64, _ c: UInt64, _ d: UInt64) -> IPAddress {
        IPAddress(high: 0, low: 0xffff_0000_0000 | a << 24 | b << 16 | c << 8 | d)
    }

    /// How many of `count` registers from `address` at `nowMs` are let through.
    private func takes(_ limiter: inout AddressRateLimiter, _ address: IPAddress, _ count: Int = 1,
                       at nowMs: UInt64 = 0) -> Int {
        (0..<count).filter { _ in limiter.take(address, nowMs: nowMs) }.count
    }

    @Test func eachAddressHasItsOwnBucket() {
        var limiter = AddressRateLimiter(ratePerSecond: 1, burst: 3)
        let first = ipv4(127, 0, 0, 1)
        let second = ipv4(127, 0, 0, 2)
        #expect(takes(&limiter, first, 5) == 3)
        #expect(takes(&limiter, second, 5) == 3)
        #expect(takes(&limiter, first, 5, at: 1_000) == 1)
    }

    @Test func ipv6AddressesShareTheBucketOfTheirSlash64() {
        var limiter = AddressRateLimiter(ratePerSecond: 1, burst: 2)
        let prefix: UInt64 = 0x2001_0db8_0000_0001
        #expect(takes(&limiter, IPAddress(high: prefix, low: 1)) == 1)
        #expect(takes(&limiter, IPAddress(high: prefix, low: 0xdead_beef)) == 1)
        #expect(takes(&limiter, IPAddress(high: prefix, low: 2)) == 0)
        #expect(takes(&limiter, IPAddress(high: prefix + 1, low: 1)) == 1)
    }

    @Test func ipv4AddressesAreNotGroupedByTheirMappedPrefix() {
        #expect(AddressRateLimiter.key(ipv4(10, 0, 0, 1)) != AddressRateLimiter.key(ipv4(10, 0, 0, 2)))
        #expect(ipv4(10, 0, 0, 1).isIPv4)
        #expect(!IPAddress(high: 0, low: 1).isIPv4)  // ::1
    }

    @Test func refilledBucketsAreForgottenSoMemoryStaysBounded() {
        var limiter = AddressRateLimiter(ratePerSecond: 1, burst: 1)
        // 100,000 addresses, one a millisecond: a bucket refills a second after its register,
        // so about 1,000 are live at any time and the table stays near twice that at most.
        var largest = 0
        var refused = 0
        for index in 0..<100_000 {
            let address = ipv4(10, UInt64(index >> 16), UInt64(index >> 8 & 255), UInt64(index & 255))
            if !limiter.take(address, nowMs: UInt64(index)) { refused += 1 }
            largest = max(largest, limiter.count)
        }
        #expect(refused == 0)
        #expect(largest <= 4_096)
    }

    @Test func offWhenTheRateIsZero() {
        var limiter = AddressRateLimiter(ratePerSecond: 0, burst: 1)
        #expect(takes(&limiter, ipv4(127, 0, 0, 1), 1_000) == 1_000)
        #expect(limiter.count == 0)
    }
}
