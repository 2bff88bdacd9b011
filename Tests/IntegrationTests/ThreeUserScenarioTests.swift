import Foundation
import LifeSignalProtocol
import Testing

/// Issue 3's scenario with the real binaries, every user in their own lsclient processes and
/// Alice on two devices: contacts by QR code, a ping and its answer, an alert to every
/// responder, a role change that withdraws a ping, and Alice's devices ending in one state.
@Suite("Three users with lsclient", .serialized)
struct ThreeUserScenarioTests {
    @Test func aliceBobAndCarolLookAfterEachOther() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        let phone = ["--profile", "alice", "--device", "phone", "--json"]
        let tablet = ["--profile", "alice", "--device", "tablet", "--json"]
        let bob = ["--profile", "bob", "--json"]
        let carol = ["--profile", "carol", "--json"]
        for (profile, name) in [("alice", "Alice"), ("bob", "Bob"), ("carol", "Carol")] {
            #expect(try cli.run(["--profile", profile, "register", "--name", name]).status == 0)
        }
        let aliceTablet = try cli.start(tablet + ["watch"])
        // A device of its own: a one-shot command on the same device would replace it.
        let bobWatch = try cli.start(bob + ["--device", "bob-watch", "watch"])
        try #require(aliceTablet.waitFor { $0.string(at: "type") == "connected" } != nil)
        try #require(bobWatch.waitFor { $0.string(at: "type") == "connected" } != nil)

        func notification(_ watch: RunningClient, _ message: String) -> JSONObject? {
            watch.waitFor { $0.string(at: "event") == EventName.notificationAdded
                && $0.string(at: "data", "notification", "message") == message }
        }

        // Alice adds Bob, then Carol, as her responders with their QR codes.
        let bobCode = try #require(try cli.run(bob + ["qr"]).result?.string(at: "qrCode"))
        let lookup = try cli.run(phone + ["qr", "lookup", bobCode])
        #expect(lookup.result?.string(at: "contact", "name") == "Bob")
        #expect(try cli.run(["--profile", "alice", "--device", "phone", "qr", "lookup", bobCode]).stdout.hasPrefix("Bob (u_"))
        let added = try cli.run(phone + ["contacts", "add", bobCode, "--responder"])
        #expect(added.result?.string(at: "contact", "role") == "responder")
        #expect(notification(aliceTablet, "You added Bob.") != nil)
        #expect(notification(bobWatch, "Alice added you.") != nil)
        let carolCode = try #require(try cli.run(carol + ["qr"]).result?.string(at: "qrCode"))
        #expect(try cli.run(phone + ["contacts", "add", carolCode, "--responder"]).status == 0)

        // Bob pings Alice by name; both of her devices see it.
        let ping = try cli.run(bob + ["ping", "alice"])
        #expect(ping.status == 0)
        let pingID = try #require(ping.result?.string(at: "pingId"))
        let onTablet = notification(aliceTablet, "Bob pinged you.")
        #expect(onTablet?.string(at: "data", "notification", "relatedPingID") == pingID)
        let respond = try cli.run(phone + ["ping", "respond", "bob"])
        #expect(respond.status == 0)
        #expect(respond.events.contains { $0.string(at: "data", "notification", "message") == "Bob pinged you." })
        #expect(notification(bobWatch, "Alice responded to your ping.") != nil)

        // Alice raises an alert: every responder is told.
        let alert = try cli.run(phone + ["alert", "--message", "fell on the stairs"])
        let alertID = try #require(alert.result?.string(at: "alertId"))
        #expect(notification(bobWatch, "Alice triggered an emergency alert.")?
            .string(at: "data", "notification", "relatedAlertID") == alertID)
        let carolList = try cli.run(carol + ["notifications"])
        #expect(carolList.result?["notifications"]?.arrayValue?.contains {
            $0.objectValue?.string(at: "message") == "Alice triggered an emergency alert."
        } == true)

        // Bob pings again; Alice makes him no longer her responder: the ping goes, and so does his right to ping.
        #expect(try cli.run(bob + ["ping", "alice"]).status == 0)
        #expect(try cli.run(phone + ["contacts", "roles", "bob"]).status == 0)
        let cleared = bobWatch.waitFor {
            $0.string(at: "event") == EventName.contactUpdated && $0.string(at: "data", "contact", "role") == "none"
        }
        #expect(cleared?.objectValue(at: "data", "contact")?["outgoingPingAt"] == .null)
        let refused = try cli.run(bob + ["ping", "alice"])
        #expect(refused.status == 1)
        // With --json the error is JSON too.
        #expect(JSONLine.parse(refused.stderr.trimmingCharacters(in: .newlines))?.string(at: "error", "code") == "forbidden")

        // Alice's second device ends in exactly the state of her first.
        let last = try cli.run(phone + ["keepalive"])
        #expect(last.status == 0)
        let lastSeq = try #require(try cli.run(phone + ["state"]).objects.first?.int(at: "lastSeq"))
        #expect(aliceTablet.waitFor { $0.int(at: "seq") == lastSeq } != nil)
        aliceTablet.stop()
        bobWatch.stop()
        let phoneState = try cli.run(phone + ["state"]).objects.first
        let tabletState = try cli.run(tablet + ["state"]).objects.first
        #expect(phoneState != nil)
        #expect(phoneState == tabletState)
        #expect(phoneState?["contacts"]?.arrayValue?.count == 2)
    }
}

extension JSONObject {
    func objectValue(at path: String...) -> JSONObject? {
        var current: JSONValue = .object(self)
        for key in path {
            guard let next = current.objectValue?[key] else { return nil }
            current = next
        }
        return current.objectValue
    }
}
