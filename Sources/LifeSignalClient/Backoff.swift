/// Delays between reconnect attempts (see `ReconnectPolicy`). A value type so it is testable with a
/// seeded generator.
package struct Backoff: Sendable {
    package let policy: ReconnectPolicy
    package private(set) var attempt = 0

    package init(policy: ReconnectPolicy) {
        self.policy = policy
    }

    /// The upper bound of the next delay: initial × 2^attempt, capped.
    var currentCeilingMs: UInt64 {
        // Past 2^40 every realistic cap is reached; stopping there avoids overflow.
        let shift = UInt64(min(attempt, 40))
        let (scaled, overflow) = policy.initialDelayMs.multipliedReportingOverflow(by: 1 << shift)
        return overflow ? policy.maxDelayMs : min(scaled, policy.maxDelayMs)
    }

    mutating func nextDelayMs(using generator: inout some RandomNumberGenerator) -> UInt64 {
        let ceiling = currentCeilingMs
        attempt += 1
        return UInt64.random(in: 0...ceiling, using: &generator)
    }

    package mutating func nextDelayMs() -> UInt64 {
        var generator = SystemRandomNumberGenerator()
        return nextDelayMs(using: &generator)
    }

    /// After a successful hello and catch-up.
    package mutating func reset() {
        attempt = 0
    }
}
