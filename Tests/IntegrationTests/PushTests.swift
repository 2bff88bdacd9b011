import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §7 on the real broker: who is pushed, with what, as `lsbroker pushes` lists it.
/// Alice (two devices) has Bob as her responder, so Bob can ping her and she can alert him.
@Suite("Push", .serialized)
struct PushTests {
    let broker: BrokerProcess
    let alice: Person
    let bob: Person

    init() throws {
        let cast = try AliceAndBob()
        (broker, alice, bob) = (cast.broker, cast.alice, cast.bob)
    }

    /// Bob pings Alice; returns the notification id her online phone was sent, if it is online.
    @discardableResult
    private func bobPingsAlice() -> String? {
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        guard !alice.phone.isClosed else { return nil }
        return alice.phone.settle().notifications.first?["id"]?.stringValue
    }

    @Test func onlyOfflineDevicesWithATokenArePushed() throws {
        alice.register(token: "token-online", on: alice.phone)
        alice.register(token: "token-offline", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        alice.takeOffline(try alice.addDevice("no-token"), named: "no-token")

        let notificationID = try #require(bobPingsAlice())
        let pushes = try RecordedPushes.read(broker, user: alice.id)
        #expect(pushes.count == 1)
        let push = try #require(pushes.first)
        #expect(push["userId"]?.stringValue == alice.id)
        #expect(push["deviceId"]?.stringValue == "device-1")
        #expect(push["token"]?.stringValue == "token-offline")
        #expect(push["notificationId"]?.stringValue == notificationID)
        #expect(push["createdAt"]?.intValue != nil)
        // Nobody else was pushed: Bob got no notification.
        #expect(try RecordedPushes.read(broker).count == 1)
    }

    @Test func theBodyIsTheFCMMessageOfSection7() throws {
        alice.register(token: "alice-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        let pingID = try #require(bob.ok(Op.pingSend, ["contactId": .string(alice.id)])["pingId"]?.stringValue)
        let notificationID = try #require(alice.phone.settle().notifications.first?["id"]?.stringValue)

        let expected: JSONObject = [
            "token": "alice-token",
            "notification": ["title": "Ping", "body": "Bob pinged you."],
            "data": ["notificationId": .string(notificationID), "type": "ping",
                     "relatedContactID": .string(bob.id), "relatedPingID": .string(pingID)],
            // Bob's pings collapse into the newest on Alice's phone.
            "android": ["collapse_key": .string("ping-\(bob.id)")],
            "apns": ["headers": ["apns-collapse-id": .string("ping-\(bob.id)")]],
        ]
        #expect(try RecordedPushes.read(broker, user: alice.id).first?.fcm == expected)
        // Exactly as sent: field order and nothing more.
        let line = try RecordedPushes.run(broker, ["--json", "--user", alice.id])
        #expect(line.contains(#""message":"# + String(decoding: JSONValue.object(expected).serialized(), as: UTF8.self) + "}"))

        // An alert carries its id; Bob's offline tablet is pushed.
        let tablet = try bob.addDevice("tablet")
        bob.register(token: "bob-token", on: tablet)
        bob.takeOffline(tablet, named: "tablet")
        let alertID = try #require(alice.ok(Op.alertTrigger)["alertId"]?.stringValue)
        let alert = try #require(try RecordedPushes.read(broker, user: bob.id).first?.fcm)
        #expect(alert["token"]?.stringValue == "bob-token")
        #expect(alert["notification"] == ["title": "Emergency Alert", "body": "Alice triggered an emergency alert."])
        let data = try #require(alert["data"]?.objectValue)
        #expect(data.keys == ["notificationId", "type", "relatedContactID", "relatedAlertID"])
        #expect(data["type"]?.stringValue == "alert")
        #expect(data["relatedContactID"]?.stringValue == alice.id)
        #expect(data["relatedAlertID"]?.stringValue == alertID)
    }

    @Test func pushTurnedOffSendsNone() throws {
        alice.register(token: "alice-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        _ = alice.ok(Op.profileUpdate, ["preferences": ["push": false]])
        #expect(bobPingsAlice() != nil)
        #expect(try RecordedPushes.read(broker, user: alice.id).isEmpty)
    }

    @Test func aMutedTypeIsNotPushedButOthersAre() throws {
        alice.register(token: "alice-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        _ = alice.ok(Op.profileUpdate, ["preferences": ["mutedTypes": ["ping"]]])
        #expect(bobPingsAlice() != nil)
        #expect(try RecordedPushes.read(broker, user: alice.id).isEmpty)

        _ = bob.ok(Op.contactsSetRoles, ["contactId": .string(alice.id), "isResponder": true, "isDependent": true])
        let pushes = try RecordedPushes.read(broker, user: alice.id)
        #expect(pushes.count == 1)
        #expect(pushes.first?.fcm?["data"]?.objectValue?["type"]?.stringValue == "role")
    }

    @Test func aMovedTokenIsPushedToItsNewOwnerOnly() throws {
        alice.register(token: "moving-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        let carol = try Person("Carol", port: broker.port, devices: 2)
        carol.register(token: "moving-token", on: carol.devices[1])
        carol.takeOffline(carol.devices[1], named: "device-1")

        bobPingsAlice()
        #expect(try RecordedPushes.read(broker, user: alice.id).isEmpty)
        bob.add(carol, responder: false, dependent: false)  // Carol: "Bob added you."
        let pushes = try RecordedPushes.read(broker)
        #expect(pushes.count == 1)
        #expect(pushes.first?["userId"]?.stringValue == carol.id)
        #expect(pushes.first?["deviceId"]?.stringValue == "device-1")
        #expect(pushes.first?["token"]?.stringValue == "moving-token")
        #expect(pushes.first?.fcm?["notification"]?.objectValue?["body"]?.stringValue == "Bob added you.")
    }

    @Test func aTokenMovedWhileItsOwnerIsUnloadedIsGoneWhenTheyLoad() throws {
        alice.register(token: "moving-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        alice.takeOffline(alice.phone, named: "device-0")
        bobPingsAlice()  // Alice is loaded for it, with her token, then unloaded
        #expect(try RecordedPushes.read(broker, user: alice.id).map { $0["token"]?.stringValue } == ["moving-token"])

        let carol = try Person("Carol", port: broker.port)
        carol.register(token: "moving-token", on: carol.phone)
        _ = bob.ok(Op.pingClear, ["contactId": .string(alice.id)])
        bobPingsAlice()
        #expect(try RecordedPushes.read(broker, user: alice.id).count == 1)
    }

    @Test func aNotificationIsPushedOncePerToken() throws {
        let tablet = try alice.addDevice("tablet")
        // The same token on two of Alice's devices in turn: only the last holds it.
        alice.register(token: "shared-token", on: alice.devices[1])
        alice.register(token: "shared-token", on: tablet)
        alice.register(token: "other-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        alice.takeOffline(tablet, named: "tablet")
        let notificationID = try #require(bobPingsAlice())
        _ = bob.ok(Op.contactsSetRoles, ["contactId": .string(alice.id), "isResponder": true, "isDependent": true])

        let pushes = try RecordedPushes.read(broker, user: alice.id)
        let pairs = pushes.map { "\($0["notificationId"]?.stringValue ?? "")/\($0["token"]?.stringValue ?? "")" }
        #expect(Set(pairs).count == pairs.count)
        #expect(pushes.count == 4)  // two notifications, two tokens
        let forPing = pushes.filter { $0["notificationId"]?.stringValue == notificationID }
        #expect(forPing.map { $0["deviceId"]?.stringValue } == ["device-1", "tablet"])
        #expect(forPing.map { $0["token"]?.stringValue } == ["other-token", "shared-token"])
    }

    @Test func theReadableListingAndTheEnvironment() throws {
        alice.register(token: "a-rather-long-fcm-registration-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        bobPingsAlice()
        var environment = ProcessInfo.processInfo.environment
        environment["LSBROKER_DATA_DIR"] = broker.dataDirectory.path
        let text = try RecordedPushes.run(broker, ["--user", alice.id], environment: environment,
                                          dataDirectoryOption: false)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 1)
        let line = try #require(lines.first)
        #expect(line.contains(alice.id))
        #expect(line.contains("device-1"))
        #expect(line.contains("a-rather-lon…"))
        #expect(!line.contains("a-rather-long-fcm-registration-token"))
        #expect(line.hasSuffix("Ping — Bob pinged you."))
        // A user who was never pushed (an unknown one is an error: PushesByNameTests).
        #expect(try RecordedPushes.run(broker, ["--user", bob.id]).isEmpty)
    }

    @Test func followPrintsNewPushesUntilSIGTERM() throws {
        alice.register(token: "alice-token", on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
        bobPingsAlice()

        let process = Process()
        process.executableURL = Binaries.broker
        process.arguments = ["pushes", "--data-dir", broker.dataDirectory.path, "--json", "--follow", "--limit", "1"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        let output = OutputCollector(pipe.fileHandleForReading)
        #expect(output.waitForLine { $0.contains("Bob pinged you.") } != nil)

        _ = bob.ok(Op.contactsSetRoles, ["contactId": .string(alice.id), "isResponder": true, "isDependent": true])
        #expect(output.waitForLine(timeout: .seconds(10)) { $0.contains("Bob changed your role") } != nil)
        kill(process.processIdentifier, SIGTERM)
        // Bounded: a follower that ignores the signal fails the test instead of hanging it.
        let deadline = ContinuousClock.now + .seconds(10)
        while process.isRunning && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(!process.isRunning)
        guard !process.isRunning else { return }
        process.waitUntilExit()  // reaps it; without this Foundation keeps the Process (LeakSanitizer)
        #expect(process.terminationStatus == 0)
        #expect(output.lines.count == 2)
    }
}
