import Foundation
import Testing

/// `watch` marks the events it replays after a connect, so that old news does not read as new
/// (issue 11).
@Suite("watch marks replayed events", .serialized)
struct WatchMissedMarkTests {
    let broker: BrokerProcess
    let cli: LSClient

    init() throws {
        broker = try BrokerProcess()
        cli = try LSClient(broker: broker, registering: ["Alice", "Bob"])
    }

    @Test func replayedEventsAreMarkedWithTheirTime() throws {
        let tablet = ["--profile", "alice", "--device", "tablet"]
        #expect(try cli.run(tablet + ["keepalive"]).status == 0)  // the tablet has a state, then goes away
        #expect(try cli.run(["--profile", "bob", "contacts", "add", try cli.qrCode(of: "alice"), "--dependent"]).status == 0)

        let watch = try cli.start(tablet + ["watch"])
        #expect(watch.output.waitForLine { $0.hasPrefix("connected as Alice") } != nil)
        let replayed = try #require(watch.output.lines.first { $0.contains("Contact Added — Bob added you.") })
        #expect(replayed.range(of: #"^\[missed \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ\] ● added  "#,
                               options: .regularExpression) != nil, "\(replayed)")
        // An event that does not say when it happened is marked all the same.
        let contact = watch.output.lines.first { $0.contains("contact added: Bob") }
        #expect(contact?.hasPrefix("[missed] ") == true, "\(watch.output.text)")

        // Live news is not marked.
        #expect(try cli.run(["--profile", "bob", "ping", "alice"]).status == 0)
        let live = watch.output.waitForLine { $0.contains("Ping — Bob pinged you.") }
        #expect(live?.hasPrefix("● ping  ") == true, "\(watch.output.text)")
        watch.stop()
    }
}
