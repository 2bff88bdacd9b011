import Foundation
import LifeSignalProtocol
import Testing

/// Issue 26, items 1–3: a profile's devices side by side (`sync`), a state's digest, and a new
/// device's snapshot shown as history.
@Suite("Sync at a glance", .serialized)
struct SyncAtAGlanceTests {
    let broker: BrokerProcess
    let cli: LSClient

    init() throws {
        broker = try BrokerProcess()
        cli = try LSClient(broker: broker, registering: ["Alice", "Bob"])
    }

    private func sync() throws -> [String: JSONObject] {
        let outcome = try cli.run(["--profile", "alice", "sync", "--json"])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let devices = JSONLine.parse(outcome.stdout)?["devices"]?.arrayValue?.compactMap(\.objectValue) ?? []
        return Dictionary(uniqueKeysWithValues: devices.compactMap { row in row["device"]?.stringValue.map { ($0, row) } })
    }

    private func digest(of device: String) throws -> String? {
        let state = try cli.run(["--profile", "alice", "--device", device, "state", "--json"])
        return JSONLine.parse(state.stdout)?["digest"]?.stringValue
    }

    @Test func devicesBehindAreShownAndConvergeWithEqualDigests() throws {
        let (phone, tablet) = (["--profile", "alice", "--device", "phone"], ["--profile", "alice", "--device", "tablet"])
        #expect(try cli.run(phone + ["keepalive"]).status == 0)
        #expect(try cli.run(tablet + ["keepalive"]).status == 0)
        #expect(try cli.run(["--profile", "bob", "contacts", "add", try cli.qrCode(of: "alice"), "--dependent"]).status == 0)
        #expect(try cli.run(["--profile", "bob", "ping", "alice"]).status == 0)
        #expect(try cli.run(phone + ["keepalive"]).status == 0)  // the phone catches up, the tablet does not

        var devices = try sync()
        let newest = try #require(devices["phone"]?["seq"]?.intValue)
        #expect(newest > 0)
        #expect(devices["phone"]?["status"]?.stringValue == "in sync")
        #expect(devices["tablet"]?["status"]?.stringValue == "behind by \(newest) events", "\(devices)")
        #expect(try digest(of: "phone") != digest(of: "tablet"))

        #expect(try cli.run(tablet + ["keepalive"]).status == 0)
        devices = try sync()
        #expect(devices["tablet"]?["status"]?.stringValue == "in sync", "\(devices)")
        #expect(devices["tablet"]?["digest"] == devices["phone"]?["digest"])
        #expect(try digest(of: "phone") == digest(of: "tablet"))

        // The table for people says the same.
        let table = try cli.run(["--profile", "alice", "sync"])
        let tabletLine = table.stdout.split(separator: "\n").first { $0.hasPrefix("tablet ") }
        #expect(tabletLine?.hasSuffix("  in sync") == true, "\(table.stdout)")
        #expect(tabletLine?.contains(" \(newest) ") == true, "\(table.stdout)")
    }

    /// `sync --live` connects each device itself: the one behind catches up and is saved so; with
    /// --watch it stays connected and shows both take each new event.
    @Test func liveDevicesCatchUpAndFollowEvents() throws {
        let (phone, tablet) = (["--profile", "alice", "--device", "phone"], ["--profile", "alice", "--device", "tablet"])
        #expect(try cli.run(phone + ["keepalive"]).status == 0)
        #expect(try cli.run(tablet + ["keepalive"]).status == 0)
        #expect(try cli.run(["--profile", "bob", "contacts", "add", try cli.qrCode(of: "alice"), "--dependent"]).status == 0)
        #expect(try cli.run(phone + ["keepalive"]).status == 0)
        #expect(try sync()["tablet"]?["status"]?.stringValue?.hasPrefix("behind by") == true)

        let live = try cli.run(["--profile", "alice", "sync", "--live", "--json"])
        #expect(live.status == 0, "\(live.stderr)")
        let rows = JSONLine.parse(live.stdout)?["devices"]?.arrayValue?.compactMap(\.objectValue) ?? []
        // The device Alice registered with, the phone and the tablet.
        #expect(rows.map { $0["status"]?.stringValue } == ["in sync", "in sync", "in sync"], "\(live.stdout)")
        #expect(try sync()["tablet"]?["status"]?.stringValue == "in sync", "saved as it caught up")

        let watching = try cli.start(["--profile", "alice", "sync", "--live", "--watch", "--json"])
        let first = try #require(watching.waitFor { $0["type"]?.stringValue == "sync" }, "\(watching.output.text)")
        let seq = try #require(first["newestSeq"]?.intValue)
        #expect(try cli.run(["--profile", "bob", "ping", "alice"]).status == 0)
        let after = watching.waitFor { object in
            let rows = object["devices"]?.arrayValue?.compactMap(\.objectValue) ?? []
            return rows.count == 3 && rows.allSatisfy { ($0["seq"]?.intValue ?? 0) > seq && $0["status"]?.stringValue == "in sync" }
        }
        #expect(after != nil, "\(watching.output.text)")
        watching.stop()
    }

    @Test func aNewDevicesSnapshotIsHistoryOldestFirst() throws {
        #expect(try cli.run(["--profile", "bob", "contacts", "add", try cli.qrCode(of: "alice"), "--dependent"]).status == 0)
        #expect(try cli.run(["--profile", "bob", "ping", "alice"]).status == 0)

        let watch = try cli.start(["--profile", "alice", "--device", "brand-new", "watch"])
        #expect(watch.output.waitForLine { $0.hasPrefix("connected as Alice") } != nil, "\(watch.output.text)")
        let lines = watch.output.lines
        #expect(lines.first?.hasPrefix("caught up from a snapshot at seq ") == true, "\(watch.output.text)")
        let history = lines.filter { $0.hasPrefix("  [history ") }
        #expect(history.count == 2, "\(watch.output.text)")
        #expect(history.first?.contains("Contact Added — Bob added you.") == true, "\(watch.output.text)")
        #expect(history.last?.contains("Ping — Bob pinged you.") == true, "\(watch.output.text)")
        #expect(!watch.output.text.contains("[missed"), "\(watch.output.text)")
        watch.stop()
    }
}
