import Foundation
import Testing

/// What responders see of an alert (PROTOCOL v1.1's `alert` and `alertData`), and alerts in bold
/// red on a terminal only (issue 11).
@Suite("Alerts as people see them", .serialized)
struct AlertDisplayTests {
    let broker: BrokerProcess
    let cli: LSClient

    init() throws {
        broker = try BrokerProcess()
        cli = try LSClient(broker: broker, registering: ["Alice", "Bob"])
    }

    @Test func respondersSeeWhatTheAlertSays() throws {
        #expect(try cli.run(["--profile", "alice", "contacts", "add", try cli.qrCode(of: "bob"), "--responder"]).status == 0)
        let watch = try cli.start(["--profile", "bob", "--device", "phone", "watch"])
        #expect(watch.output.waitForLine { $0.hasPrefix("connected as Bob") } != nil)

        #expect(try cli.run(["--profile", "alice", "alert", "--message", "fell on the stairs"]).status == 0)
        let alert = watch.output.waitForLine { $0.contains("● alert  Emergency Alert") }
        #expect(alert?.contains(#"Alice triggered an emergency alert. "fell on the stairs""#) == true,
                "\(watch.output.text)")
        watch.stop()

        let contacts = try cli.run(["--profile", "bob", "contacts"])
        let line = try #require(contacts.stdout.split(separator: "\n").first { $0.contains("Alice (") })
        #expect(line.contains(#"ALERT since just now: "fell on the stairs""#), "\(contacts.stdout)")
    }

    @Test(.enabled(if: LSClient.canRunOnTerminal))
    func alertsAreBoldRedOnATerminalOnly() throws {
        #expect(try cli.run(["--profile", "alice", "contacts", "add", try cli.qrCode(of: "bob"), "--responder"]).status == 0)
        #expect(try cli.run(["--profile", "alice", "alert", "--message", "help"]).status == 0)
        let boldRed = "\u{1B}[1;31m"

        let terminal = try cli.runOnTerminal(["--profile", "bob", "contacts"])
        #expect(terminal.contains(boldRed + #"ALERT since"#), "\(terminal.debugDescription)")
        let notifications = try cli.runOnTerminal(["--profile", "bob", "notifications"])
        #expect(notifications.contains(boldRed + "● alert  Emergency Alert"), "\(notifications.debugDescription)")

        let noColor = try cli.runOnTerminal(["--profile", "bob", "contacts"], environment: ["NO_COLOR": "1"])
        #expect(noColor.contains("ALERT since"))
        #expect(!noColor.contains("\u{1B}["))
        let piped = try cli.run(["--profile", "bob", "contacts"]).stdout
        #expect(piped.contains("ALERT since"))
        #expect(!piped.contains("\u{1B}["))
    }
}
