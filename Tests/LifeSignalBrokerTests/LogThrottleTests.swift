@testable import LifeSignalBroker
import Testing

@Suite struct LogThrottleTests {
    @Test func oneLinePerIntervalPerKindCountingWhatWasLeftOut() {
        var throttle = LogThrottle()
        #expect(throttle.admit(.connectionRefused, nowMs: 0) == 0)
        for _ in 0..<9 { #expect(throttle.admit(.connectionRefused, nowMs: 10) == nil) }
        #expect(throttle.admit(.overloaded, nowMs: 10) == 0)  // kinds are separate
        #expect(throttle.admit(.connectionRefused, nowMs: LogThrottle.intervalMs) == 9)
        #expect(throttle.admit(.connectionRefused, nowMs: LogThrottle.intervalMs + 1) == nil)
    }
}
