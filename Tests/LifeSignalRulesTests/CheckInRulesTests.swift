@testable import LifeSignalRules
import Testing

/// §5: a new interval counts from the last check-in, or from now where that has passed.
@Suite struct CheckInRulesTests {
    @Test func noDeadlineBeforeTheFirstCheckIn() {
        #expect(CheckInRules.deadline(lastCheckInAt: nil, intervalSec: 60, now: 1_000) == nil)
    }

    @Test func countsFromTheLastCheckInWhileThatIsAhead() {
        #expect(CheckInRules.deadline(lastCheckInAt: 10_000, intervalSec: 60, now: 20_000) == 70_000)
    }

    @Test(arguments: [70_000, 70_001, 999_999] as [Int64])
    func countsFromNowOnceThatHasPassed(now: Int64) {
        #expect(CheckInRules.deadline(lastCheckInAt: 10_000, intervalSec: 60, now: now) == now + 60_000)
    }

    @Test func aCheckInNowIsDueOneIntervalFromNow() {
        #expect(CheckInRules.deadline(lastCheckInAt: 5_000, intervalSec: 3_600, now: 5_000) == 3_605_000)
    }
}
