import LifeSignalProtocol
import Testing

@testable import lsclient

/// Issue 26 item 11: lsclient writes times, deadlines and device lists one way everywhere.
@Suite struct OneStyleTests {
    /// Every time lsclient prints is UTC to the millisecond, as the broker's log writes it.
    @Test func timesAreUTCToTheMillisecond() {
        #expect(Readable.time(1_764_063_667_123) == "2025-11-25 09:41:07.123Z")
        #expect(Readable.clockTime(1_764_063_667_005) == "09:41:07.005Z")
        #expect(Readable.clockTime(1_764_063_667_000) == "09:41:07.000Z")
    }

    /// A deadline within a second either side is "now": never "in 0s" or "0s overdue".
    @Test(arguments: [-999, -600, -1, 0, 400, 999] as [Int64])
    func aDeadlineWithinTheSecondIsNow(_ offsetMs: Int64) {
        let clock = RelativeTime()
        #expect(clock.until(clock.nowMs + offsetMs) == "now")
    }

    @Test func deadlinesFurtherOffSayWhichWay() {
        let clock = RelativeTime()
        #expect(clock.until(clock.nowMs + 90_000) == "in 2m")
        #expect(clock.until(clock.nowMs - 5_000) == "5s overdue")
    }

    /// `lsclient devices`: columns line up whatever the names' lengths, and no line ends in spaces.
    @Test func devicesAreInAlignedColumns() {
        let lines = Readable.devices([
            DeviceInfo(device: "phone", platform: "ios", hasToken: true, online: true, lastSeenAt: 1_764_063_667_123),
            DeviceInfo(device: "kitchen-tablet", hasToken: false, online: false, linkedAt: 1_764_063_600_000,
                       hasCredential: true),
        ])
        #expect(lines == [
            "phone           online   ios  push token     account token                    last seen 2025-11-25 09:41:07.123Z",
            "kitchen-tablet  offline  -    no push token  linked 2025-11-25 09:40:00.000Z",
        ])
    }
}
