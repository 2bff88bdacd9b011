import Foundation
import LifeSignalProtocol
import Testing

/// Issue 2's end-to-end check with the real binaries: a user registered with `lsclient`, two
/// devices in two processes seeing the same events with the same seq, and a broker killed
/// with SIGKILL that comes back with the profile, both tokens and the seq intact.
@Suite("Two lsclient devices in sync", .serialized)
struct DeviceSyncTests {
    @Test func twoDevicesStayInSyncAcrossAKilledBroker() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        let alice = ["--profile", "alice"]
        let phone = alice + ["--device", "phone", "--json"]
        let tablet = alice + ["--device", "tablet", "--json"]

        #expect(try cli.run(alice + ["register", "--name", "Alice"]).status == 0)
        #expect(try cli.run(phone + ["device", "register", "tok-phone", "--platform", "ios"]).status == 0)
        #expect(try cli.run(tablet + ["device", "register", "tok-tablet", "--platform", "android"]).status == 0)

        let watch = try cli.start(tablet + ["watch"])
        try #require(watch.waitFor { $0.string(at: "type") == "connected" } != nil)

        let update = try cli.run(phone + ["profile", "update", "--name", "Alice Smith"])
        #expect(update.status == 0)
        #expect(update.result?.string(at: "user", "name") == "Alice Smith")
        let seq = try #require(update.events.last { $0.string(at: "event") == EventName.userUpdated }?.int(at: "seq"))
        let seenByTablet = watch.waitFor {
            $0.string(at: "event") == EventName.userUpdated && $0.string(at: "data", "user", "name") == "Alice Smith"
        }
        #expect(seenByTablet?.int(at: "seq") == seq)

        try broker.restart(afterSignal: SIGKILL)

        let whoami = try cli.run(phone + ["whoami"])
        #expect(whoami.result?.string(at: "user", "name") == "Alice Smith")
        #expect(whoami.result?.int(at: "lastSeq") == seq)
        let devices = try cli.run(phone + ["devices"]).result?["devices"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let tokens = Dictionary(uniqueKeysWithValues: devices.compactMap { device in
            device.string(at: "device").map { ($0, device.bool(at: "hasToken")) }
        })
        #expect(tokens == ["phone": true, "tablet": true])

        // The seq goes on where it was, and the watching tablet (reconnected with resume) follows.
        let next = try cli.run(phone + ["profile", "update", "--phone", "+15550100"])
        #expect(next.events.last?.int(at: "seq") == seq + 1)
        #expect(watch.waitFor { $0.int(at: "seq") == seq + 1 } != nil)

        // Both devices end holding exactly the same state.
        watch.stop()
        let phoneState = try cli.run(phone + ["state"]).objects.first
        let tabletState = try cli.run(tablet + ["state"]).objects.first
        #expect(phoneState != nil)
        #expect(phoneState == tabletState)
        #expect(phoneState?.int(at: "lastSeq") == seq + 1)
    }

    @Test func anOfflineDeviceCatchesUpWithExactlyWhatItMissed() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        let phone = ["--profile", "bob", "--device", "phone", "--json"]
        let laptop = ["--profile", "bob", "--device", "laptop", "--json"]
        #expect(try cli.run(["--profile", "bob", "register", "--name", "Bob"]).status == 0)
        let first = try cli.run(laptop + ["keepalive"])
        #expect(first.status == 0)

        for name in ["Bob 1", "Bob 2", "Bob 3"] {
            #expect(try cli.run(phone + ["profile", "update", "--name", name]).status == 0)
        }
        let catchUp = try cli.run(laptop + ["keepalive"])
        let seqs = catchUp.events.compactMap { $0.int(at: "seq") }
        let names = catchUp.events.compactMap { $0.string(at: "data", "user", "name") }
        #expect(names == ["Bob 1", "Bob 2", "Bob 3"])
        #expect(seqs == [seqs.first ?? 0, (seqs.first ?? 0) + 1, (seqs.first ?? 0) + 2])
        #expect(!catchUp.objects.contains { $0.string(at: "type") == "snapshot" })
    }

    @Test func theCredentialIsSavedReadableOnlyByItsOwner() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        #expect(try cli.run(["--profile", "dora", "register", "--name", "Dora"]).status == 0)
        let profile = cli.configDirectory.url.appendingPathComponent("profiles/dora.json").path
        let attributes = try FileManager.default.attributesOfItem(atPath: profile)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: profile, encoding: .utf8)
        #expect(text.contains("token"))
        // A second register may not overwrite it by accident.
        #expect(try cli.run(["--profile", "dora", "register", "--name", "Dora"]).status != 0)
    }

    @Test func brokerErrorsPrintTheCodeAndExitNonZero() throws {
        let broker = try BrokerProcess()
        let cli = LSClient(broker: broker)
        #expect(try cli.run(["--profile", "carol", "register", "--name", "Carol"]).status == 0)
        let bad = try cli.run(["--profile", "carol", "profile", "update", "--interval", "5"])
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("error: bad_request:"))
    }
}
