import Testing

@testable import LifeSignalClient

/// Deterministic generator (SplitMix64) so the bounds are checked on reproducible draws.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct BackoffTests {
    @Test func ceilingDoublesFrom100msAndCapsAt10s() {
        var backoff = Backoff(policy: .default)
        var generator = SeededGenerator(state: 1)
        var ceilings: [UInt64] = []
        for _ in 0..<10 {
            ceilings.append(backoff.currentCeilingMs)
            _ = backoff.nextDelayMs(using: &generator)
        }
        #expect(ceilings == [100, 200, 400, 800, 1_600, 3_200, 6_400, 10_000, 10_000, 10_000])
    }

    @Test func delaysStayWithinFullJitterBounds() {
        var backoff = Backoff(policy: .default)
        var generator = SeededGenerator(state: 7)
        for _ in 0..<1_000 {
            let ceiling = backoff.currentCeilingMs
            let delay = backoff.nextDelayMs(using: &generator)
            #expect(delay <= ceiling)
            #expect(ceiling <= 10_000)
        }
    }

    @Test func jitterSpreadsOverTheWindow() {
        // Full jitter: draws across the whole 0…ceiling range, not bunched at the top.
        var generator = SeededGenerator(state: 3)
        var delays: [UInt64] = []
        for _ in 0..<200 {
            var backoff = Backoff(policy: .default)
            for _ in 0..<9 { _ = backoff.nextDelayMs(using: &generator) }
            delays.append(backoff.nextDelayMs(using: &generator))
        }
        #expect(delays.contains { $0 < 2_500 })
        #expect(delays.contains { $0 > 7_500 })
    }

    @Test func resetStartsOver() {
        var backoff = Backoff(policy: .default)
        var generator = SeededGenerator(state: 1)
        for _ in 0..<5 { _ = backoff.nextDelayMs(using: &generator) }
        backoff.reset()
        #expect(backoff.currentCeilingMs == 100)
    }

    @Test func manyAttemptsDoNotOverflow() {
        var backoff = Backoff(policy: ReconnectPolicy(initialDelayMs: 1 << 40, maxDelayMs: .max))
        var generator = SeededGenerator(state: 1)
        for _ in 0..<200 { _ = backoff.nextDelayMs(using: &generator) }
        #expect(backoff.currentCeilingMs == .max)
    }

    @Test func policyKeepsItsBoundsSane() {
        let policy = ReconnectPolicy(initialDelayMs: 0, maxDelayMs: 0)
        #expect(policy.initialDelayMs == 1)
        #expect(policy.maxDelayMs == 1)
    }
}
