import Testing

/// `lsclient profile update --interval` takes intervals as lsclient prints them (issue 11).
@Suite("profile update --interval", .serialized)
struct ProfileIntervalTests {
    @Test func anHourIs3600Seconds() throws {
        let cli = LSClient(broker: try BrokerProcess())
        try cli.register("Alice")
        let update = try cli.run(["--profile", "alice", "--json", "profile", "update", "--interval", "1h"])
        #expect(update.status == 0, "\(update.stderr)")
        #expect(update.result?.int(at: "user", "checkInIntervalSec") == 3_600)
        // And as a person reads it back.
        let shown = try cli.run(["--profile", "alice", "whoami"]).stdout
        #expect(shown.contains("check-in:    every 1h"))
    }

    @Test func plainSecondsStillWork() throws {
        let cli = LSClient(broker: try BrokerProcess())
        try cli.register("Bob")
        let update = try cli.run(["--profile", "bob", "--json", "profile", "update", "--interval", "7200"])
        #expect(update.result?.int(at: "user", "checkInIntervalSec") == 7_200)
    }
}
