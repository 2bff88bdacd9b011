import Foundation
import LifeSignalProtocol
import Testing

/// `lsbroker users QUERY` (issue 15): a user's contacts, notifications and devices from either store.
@Suite("lsbroker users", .serialized)
struct UsersCommandTests {
    /// Alice on two devices (the first with a push token), Bob her responder and Carol her
    /// dependent; Bob pings her twice and she reads the first ping. Her history: "You added Bob",
    /// "You added Carol" and two pings, three unread.
    private struct Traffic {
        let alice: Person
        let bob: Person
        let carol: Person

        init(port: Int) throws {
            alice = try Person("Alice", port: port, devices: 2)
            bob = try Person("Bob", port: port)
            carol = try Person("Carol", port: port)
            _ = alice.ok(Op.deviceRegister, ["token": "alice-phone-push-token", "platform": "ios"])
            alice.add(bob, responder: true, dependent: false)
            alice.add(carol, responder: false, dependent: true)
            _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
            _ = alice.ok(Op.pingRespond, ["contactId": .string(bob.id)])
            _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
            let firstPing = alice.settle()[0].notifications.first { $0.string(at: "type") == "ping" }
            _ = alice.ok(Op.notificationsRead, ["id": .string(firstPing?.string(at: "id") ?? "?")])
            _ = alice.settle()
            _ = bob.settle()
        }
    }

    private func users(_ store: [String], _ arguments: [String]) throws -> LSClient.Outcome {
        try runBroker(["users"] + store + arguments)
    }

    @Test func theEmbeddedStoreShowsCountsAndDevicesButNotWhoIsOnline() throws {
        let broker = try BrokerProcess()
        let traffic = try Traffic(port: broker.port)
        let store = ["--data-dir", broker.dataDirectory.path]

        let json = try users(store, ["--json", "alice"])
        #expect(json.status == 0, "\(json.stderr)")
        let alice = try #require(JSONLine.parse(json.stdout.trimmingCharacters(in: .newlines)), "\(json.stdout)")
        try checkAlice(alice, traffic: traffic)
        let devices = deviceObjects(of: alice)
        #expect(devices.allSatisfy { $0["online"] == .null }, "the store does not know: \(devices)")

        let text = try users(store, [traffic.alice.id])
        #expect(text.status == 0)
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "Alice (\(traffic.alice.id))", "\(text.stdout)")
        #expect(lines.contains("  contacts       1 responder, 1 dependent"), "\(text.stdout)")
        #expect(lines.contains("  notifications  4, 3 unread"))
        #expect(lines.contains { $0.hasPrefix("  seq            ") })
        #expect(lines.contains { $0.hasPrefix("    device-0  ios       yes         ") && $0.hasSuffix("  unknown") },
                "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("    device-1  -         no          ") }, "\(text.stdout)")
        #expect(!text.stdout.contains("alice-phone-push-token"))
    }

    @Test func theEmbeddedBrokerIsAskedWhoIsOnlineWithMetricsURL() throws {
        let broker = try BrokerProcess(arguments: ["--metrics-port", "0"])
        let traffic = try Traffic(port: broker.port)
        traffic.alice.takeOffline(traffic.alice.phone, named: "device-0")
        let url = "http://127.0.0.1:\(try #require(broker.metricsPort))"
        let listed = try users(["--data-dir", broker.dataDirectory.path], ["--json", "--metrics-url", url, "Alice"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let alice = try #require(JSONLine.parse(listed.stdout.trimmingCharacters(in: .newlines)))
        let devices = deviceObjects(of: alice)
        #expect(devices.map { $0["online"] } == [.bool(false), .bool(true)])

        // A broker that cannot be asked: unknown, and a note saying why.
        let unreachable = try users(["--data-dir", broker.dataDirectory.path],
                                    ["--metrics-url", "http://127.0.0.1:1", "Alice"])
        #expect(unreachable.status == 0)
        #expect(unreachable.stderr.contains("online state unknown"), "\(unreachable.stderr)")
        #expect(unreachable.stdout.contains("unknown"))
    }

    @Test func noMatchIsExitStatusOneAndAJSONErrorWithJSON() throws {
        let broker = try BrokerProcess()
        _ = try Person("Bob", port: broker.port)
        let store = ["--data-dir", broker.dataDirectory.path]
        let missing = try users(store, ["nobody"])
        #expect(missing.status == 1)
        #expect(missing.stdout.isEmpty)
        #expect(missing.stderr.contains("no user has the id or name 'nobody'"), "\(missing.stderr)")
        let json = try users(store, ["--json", "nobody"])
        #expect(json.status == 1)
        let error = JSONLine.parse(json.stderr.trimmingCharacters(in: .newlines))
        #expect(error?.string(at: "type") == "error")
        #expect(error?.string(at: "error", "code") == "not_found")
    }

    @Test func severalUsersOfOneNameAreAllShown() throws {
        let broker = try BrokerProcess()
        let first = try Person("Dana", port: broker.port)
        let second = try Person("dana", port: broker.port)
        let listed = try users(["--data-dir", broker.dataDirectory.path], ["--json", "DANA"])
        #expect(listed.status == 0)
        let ids = listed.stdout.split(separator: "\n").compactMap { JSONLine.parse(String($0))?.string(at: "id") }
        #expect(ids == [first.id, second.id])
    }

    /// A part of a name finds every user whose name holds it; a near miss is suggested.
    @Test func aPartOfANameFindsAndANearMissIsSuggested() throws {
        let broker = try BrokerProcess()
        let alice = try Person("Alice Smith", port: broker.port)
        let natalia = try Person("Natalia", port: broker.port)
        _ = try Person("Bob", port: broker.port)
        let store = ["--data-dir", broker.dataDirectory.path]

        let part = try users(store, ["--json", "ali"])
        #expect(part.status == 0, "\(part.stderr)")
        let ids = part.stdout.split(separator: "\n").compactMap { JSONLine.parse(String($0))?.string(at: "id") }
        #expect(ids == [alice.id, natalia.id])
        let prefix = try users(store, ["--json", String(alice.id.prefix(8))])
        #expect(prefix.stdout.contains(alice.id), "\(prefix.stdout)")

        let typo = try users(store, ["smiht"])
        #expect(typo.status == 1)
        #expect(typo.stderr.contains("did you mean Alice Smith (\(alice.id))?"), "\(typo.stderr)")
        let faraway = try users(store, ["zzzzzz"])
        #expect(faraway.status == 1 && !faraway.stderr.contains("did you mean"), "\(faraway.stderr)")
    }

    /// Through the running broker: its own memory forgets the token (devices.list, which the
    /// embedded broker answers from memory, says so), then the store.
    @Test func aDevicesPushTokenIsRemovedThroughTheRunningBroker() throws {
        let broker = try BrokerProcess(arguments: ["--metrics-port", "0"])
        let traffic = try Traffic(port: broker.port)
        let remote = ["--metrics-url", "http://127.0.0.1:\(try #require(broker.metricsPort))"]
        let store = ["--data-dir", broker.dataDirectory.path]
        try checkTokenRemoval(store: store, remote: remote, traffic: traffic)
        #expect(try users(store, ["--remove-token", "device-0", "Alice"]).status == 64, "no --metrics-url")
    }

    private func checkTokenRemoval(store: [String], remote: [String], traffic: Traffic) throws {
        let removed = try users(store + remote, ["--json", "--remove-token", "device-0", "alice"])
        #expect(removed.status == 0, "\(removed.stderr)")
        #expect(removed.stderr.contains("removed the push token of Alice's device 'device-0'"), "\(removed.stderr)")
        let alice = try #require(JSONLine.parse(removed.stdout.trimmingCharacters(in: .newlines)))
        #expect(deviceObjects(of: alice).map { $0.bool(at: "hasToken") } == [false, false])
        let listed = traffic.alice.ok(Op.devicesList)["devices"]?.arrayValue?.compactMap(\.objectValue) ?? []
        #expect(listed.map { $0["hasToken"] } == [.bool(false), .bool(false)], "\(listed)")
        #expect(traffic.alice.devices[1].isTold(device: "device-0", hasToken: false), "devices.changed (§12)")

        let again = try users(store + remote, ["--remove-token", "device-0", "alice"])
        #expect(again.status == 0 && again.stderr.contains("has no push token"), "\(again.stderr)")
        // A change names its user in full: a part of the name is refused, and nothing is removed.
        let partial = try users(store + remote, ["--remove-token", "device-0", "ali"])
        #expect(partial.status == 1 && partial.stderr.contains("takes an id or a whole name"), "\(partial.stderr)")
        let unknown = try users(store + remote, ["--remove-token", "tablet", "alice"])
        #expect(unknown.status == 1 && unknown.stderr.contains("Alice has no device 'tablet'"), "\(unknown.stderr)")
    }

    /// The presence table says which broker holds each device.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_POSTGRES"] != nil))
    func aClusterShowsCountsDevicesAndTheBrokerHoldingEach() throws {
        let cluster = try TestCluster(brokers: 2)
        let traffic = try Traffic(port: cluster.ports[0])
        let store = ["--postgres", cluster.databaseURL]
        try traffic.alice.addDevice("device-2", port: cluster.ports[1])
        _ = traffic.alice.devices[1].request(Op.bye)

        let listed = try users(store, ["--json", "ALICE"])
        #expect(listed.status == 0, "\(listed.stderr)")
        let alice = try #require(JSONLine.parse(listed.stdout.trimmingCharacters(in: .newlines)), "\(listed.stdout)")
        try checkAlice(alice, traffic: traffic, devices: 3)
        let devices = deviceObjects(of: alice)
        #expect(devices.map { $0["online"] } == [.bool(true), .bool(false), .bool(true)])
        #expect(devices.map { $0.string(at: "broker") } == ["cluster-0", nil, "cluster-1"])

        let text = try users(store, [traffic.alice.id])
        #expect(text.stdout.contains("  yes (cluster-1)"), "\(text.stdout)")
        #expect(try users(store, ["nobody"]).status == 1)
        #expect(try users(store + ["--metrics-url", "http://127.0.0.1:1"], ["Alice"]).status == 64)
    }

    /// Any broker of the cluster takes the removal; the token goes from PostgreSQL.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_POSTGRES"] != nil))
    func aClusterDevicesPushTokenIsRemovedThroughAnyBroker() throws {
        let cluster = try TestCluster(brokers: 2, arguments: ["--metrics-port", "0"])
        let traffic = try Traffic(port: cluster.ports[0])
        let remote = ["--metrics-url", "http://127.0.0.1:\(try #require(cluster.brokers[1].metricsPort))"]
        try checkTokenRemoval(store: ["--postgres", cluster.databaseURL], remote: remote, traffic: traffic)
    }

    private func deviceObjects(of user: JSONObject) -> [JSONObject] {
        (user["devices"]?.arrayValue ?? []).compactMap { $0.objectValue }
    }

    /// What both stores must say of Alice after `Traffic`.
    private func checkAlice(_ alice: JSONObject, traffic: Traffic, devices count: Int = 2) throws {
        #expect(alice.string(at: "id") == traffic.alice.id)
        #expect(alice.string(at: "name") == "Alice")
        #expect((alice.int(at: "createdAt") ?? 0) > 1_700_000_000_000)
        #expect((alice.int(at: "seq") ?? 0) >= 5)
        #expect(alice.int(at: "contacts", "responders") == 1)
        #expect(alice.int(at: "contacts", "dependents") == 1)
        #expect(alice.int(at: "notifications", "total") == 4, "\(alice)")
        #expect(alice.int(at: "notifications", "unread") == 3)
        let devices = deviceObjects(of: alice)
        #expect(devices.count == count)
        #expect(devices.map { $0.string(at: "id") } == (0..<count).map { "device-\($0)" })
        #expect(devices.first?.string(at: "platform") == "ios")
        #expect(devices.map { $0.bool(at: "hasToken") } == [true] + Array(repeating: false, count: count - 1))
        #expect(devices.allSatisfy { ($0.int(at: "lastSeenAt") ?? 0) > 1_700_000_000_000 })
        #expect(!"\(alice)".contains("alice-phone-push-token"))
    }
}
