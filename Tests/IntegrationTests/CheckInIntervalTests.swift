import Testing

@testable import lsclient

/// `lsclient profile update --interval` reads intervals the way lsclient prints them.
@Suite struct CheckInIntervalTests {
    @Test(arguments: [
        ("90", 90), ("90s", 90), ("30m", 1_800), ("1h", 3_600), ("2d", 172_800), ("1h30m", 5_400),
        ("1d12h", 129_600), ("2h0m5s", 7_205),
    ] as [(String, Int64)])
    func accepts(_ text: String, _ seconds: Int64) {
        #expect(CheckInInterval(argument: text)?.seconds == seconds)
    }

    @Test(arguments: ["", "0", "0s", "-5", "h", "1x", "1.5h", "1 h", "1H", "30m1h", "1h1h", "1h30", "99999999999999999999d"])
    func refuses(_ text: String) {
        #expect(CheckInInterval(argument: text) == nil)
    }

    /// What lsclient prints, it takes back.
    @Test(arguments: [60, 90, 3_600, 5_400, 86_400, 2_592_000] as [Int64])
    func readsWhatItPrints(_ seconds: Int64) {
        #expect(CheckInInterval(argument: Readable.duration(seconds: seconds))?.seconds == seconds)
    }
}
