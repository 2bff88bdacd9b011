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
        // Each event line starts with its seq and when it arrived (issue 26).
        let seqAndTime = #"^#\d+ \d\d:\d\d:\d\d\.\d{3}Z  "#
        let replayed = try #require(watch.output.lines.first { $0.contains("Contact Added — Bob added you.") })
        #expect(replayed.range(of: seqAndTime + #"\[missed \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z\] ● added  "#,
                               options: .regularExpression) != nil, "\(replayed)")
        // An event that does not say when it happened is marked all the same.
        let contact = try #require(watch.output.lines.first { $0.contains("contact added: Bob") })
        #expect(contact.range(of: seqAndTime + #"\[missed\] "#, options: .regularExpression) != nil,
                "\(watch.output.text)")

        // Live news is not marked.
        #expect(try cli.run(["--profile", "bob", "ping", "alice"]).status == 0)
        let live = try #require(watch.output.waitForLine { $0.contains("Ping — Bob pinged you.") })
        #expect(live.range(of: seqAndTime + "● ping  ", options: .regularExpression) != nil, "\(watch.output.text)")
        // The seqs are the device's: consecutive, the live one after the replayed ones.
        let seqs = watch.output.lines.compactMap { line in
            line.hasPrefix("#") ? Int(line.dropFirst().prefix { $0.isNumber }) : nil
        }
        #expect(seqs == Array(1...seqs.count).map { seqs[0] - 1 + $0 }, "\(watch.output.text)")
        watch.stop()
    }
}
