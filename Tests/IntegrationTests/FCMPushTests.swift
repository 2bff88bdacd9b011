import Foundation
import LifeSignalBroker
import LifeSignalProtocol
import Testing

@testable import lsbroker

/// The FCM HTTP v1 sender on the real broker (`--fcm-service-account`), against a fake FCM and
/// token endpoint on loopback that checks every request: Alice's second device is offline with a
/// token, and Bob, her responder, pings her.
@Suite("FCM push", .serialized)
struct FCMPushTests {
    let fcm: FakeFCM
    let account: ServiceAccountFile
    let broker: BrokerProcess
    let alice: Person
    let bob: Person

    init() throws {
        // Debug: what the broker logs at its most talkative must still hold no secret.
        (fcm, account, broker) = try BrokerWithFakeFCM(environment: ["LSBROKER_LOG_LEVEL": "debug"]).parts
        alice = try Person("Alice", port: broker.port, devices: 2)
        bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        _ = alice.settle()
        _ = bob.settle()
    }

    /// Registers `token` on Alice's second device and takes it offline.
    private func aliceIsAway(withToken token: String) {
        alice.register(token: token, on: alice.devices[1])
        alice.takeOffline(alice.devices[1], named: "device-1")
    }

    /// Bob pings Alice (clearing his last ping first, if asked); returns the notification's id.
    @discardableResult
    private func bobPingsAlice(clearingFirst: Bool = false) throws -> String {
        if clearingFirst { _ = bob.ok(Op.pingClear, ["contactId": .string(alice.id)]) }
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        return try #require(alice.phone.settle().notifications.last?["id"]?.stringValue)
    }

    /// Whether `lifesignal_pushes_total{result}` reaches `count` (pushes are counted off the loop).
    private func counted(_ result: String, _ count: Int, atLeast: Bool = false) -> Bool {
        (try? eventually {
            let total = Int(PrometheusSamples(parsing: try broker.operations("/metrics").body)
                .total(MetricName.pushes, ["result": result]))
            return atLeast ? total >= count : total == count
        }) ?? false
    }

    private func sends(of notificationID: String) -> [FakeFCM.Send] {
        fcm.sends.filter { $0.notificationID == notificationID }
    }

    /// Alice's device-1 as `devices.list` shows it, once it says `hasToken` is `expected` (bounded).
    private func aliceSecondDeviceHasToken(becoming expected: Bool) -> Bool? {
        let deadline = ContinuousClock.now + .seconds(15)
        var hasToken: Bool?
        repeat {
            let list = alice.ok(Op.devicesList)["devices"]?.arrayValue ?? []
            hasToken = list.compactMap(\.objectValue).first { $0["device"]?.stringValue == "device-1" }?["hasToken"]?.boolValue
            if hasToken == expected { return hasToken }
            Thread.sleep(forTimeInterval: 0.05)
        } while ContinuousClock.now < deadline
        return hasToken
    }

    /// Neither push tokens, access tokens, the assertion nor the key appear in the broker's log.
    private func expectNoSecretsLogged(_ pushTokens: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        let log = broker.loggedText
        #expect(!log.isEmpty, sourceLocation: sourceLocation)
        for secret in pushTokens + ["ya29.", "eyJ", "PRIVATE KEY", "Bearer"] {
            #expect(!log.contains(secret), "the log shows \(secret)", sourceLocation: sourceLocation)
        }
    }

    @Test func aPushIsSentAsRecordedWithASignedAssertionAndABearerToken() throws {
        aliceIsAway(withToken: "good-token")
        let notificationID = try bobPingsAlice()
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == notificationID } })
        let sent = sends(of: notificationID)
        #expect(sent.count == 1)
        #expect(sent.first?.status == 200)
        // The body is the PROTOCOL §7 message the store recorded, unchanged.
        let recorded = try RecordedPushes.read(broker, user: alice.id)
        #expect(recorded.count == 1)
        #expect(sent.first?.message == recorded.first?.fcm)
        #expect(sent.first?.token == "good-token")
        #expect(fcm.state.withLock { $0.tokenRequests } == 1)
        #expect(fcm.problems.isEmpty)

        // The access token is kept: a second push does not ask for another.
        let second = try bobPingsAlice(clearingFirst: true)
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == second } })
        #expect(fcm.state.withLock { $0.tokenRequests } == 1)
        #expect(fcm.problems.isEmpty)
        #expect(counted("sent", 2))
        expectNoSecretsLogged(["good-token"])
    }

    @Test func anAccessTokenIsRenewedBeforeItExpiresAndWhenFCMRefusesIt() throws {
        // Issued for 2 s: renewed after 1 s (half its life, since that is less than a minute).
        fcm.state.withLock { $0.expiresIn = 2 }
        aliceIsAway(withToken: "good-token")
        let first = try bobPingsAlice()
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == first } })
        Thread.sleep(forTimeInterval: 1.5)
        let second = try bobPingsAlice(clearingFirst: true)
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == second } })
        #expect(fcm.state.withLock { $0.tokenRequests } == 2)

        // FCM refuses the access token: a new one is fetched at once and the push sent with it.
        fcm.state.withLock { $0.expiresIn = 3599 }
        fcm.script("good-token", [.unauthenticated])
        let third = try bobPingsAlice(clearingFirst: true)
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == third && $0.status == 200 } })
        #expect(sends(of: third).map(\.status) == [401, 200])
        #expect(fcm.state.withLock { $0.tokenRequests } == 3)
        #expect(fcm.problems.isEmpty)
    }

    @Test func unavailableIsRetriedAfterRetryAfterAndDeliveredOnce() throws {
        fcm.script("flaky-token", [.unavailable(retryAfter: 1)])
        aliceIsAway(withToken: "flaky-token")
        let notificationID = try bobPingsAlice()
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == notificationID && $0.status == 200 } })
        // Nothing more comes: the retry was the last try.
        Thread.sleep(forTimeInterval: 1.5)
        #expect(sends(of: notificationID).map(\.status) == [503, 200])
        #expect(fcm.problems.isEmpty)
        #expect(counted("retried", 1))
        #expect(counted("sent", 1))
    }

    @Test func tooManyRequestsIsRetried() throws {
        // Without Retry-After FCM asks for a minute: FairPushTests waits for that.
        fcm.script("busy-token", [.tooManyRequests(retryAfter: 1)])
        aliceIsAway(withToken: "busy-token")
        let notificationID = try bobPingsAlice()
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == notificationID && $0.status == 200 } })
        Thread.sleep(forTimeInterval: 1.5)
        #expect(sends(of: notificationID).map(\.status) == [429, 200])
        #expect(fcm.problems.isEmpty)
    }

    @Test func anUnregisteredTokenIsRemovedAndNotPushedAgain() throws {
        fcm.script("gone-token", [.unregistered])
        aliceIsAway(withToken: "gone-token")
        let notificationID = try bobPingsAlice()
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == notificationID } })
        #expect(aliceSecondDeviceHasToken(becoming: false) == false)
        #expect(alice.phone.isTold(device: "device-1", hasToken: false), "devices.changed (§12)")

        // A later notification is neither recorded for that device nor sent.
        let later = try bobPingsAlice(clearingFirst: true)
        #expect(try RecordedPushes.read(broker, user: alice.id).compactMap { $0["notificationId"]?.stringValue }
            == [notificationID])
        Thread.sleep(forTimeInterval: 0.5)
        #expect(sends(of: later).isEmpty)
        #expect(fcm.sends.count == 1)
        #expect(fcm.problems.isEmpty)
        // Said with the ids only.
        let removal = broker.loggedText.split(separator: "\n").first { $0.contains("rejected a device's push token") }
        #expect(removal?.contains("lifesignal.device=device-1") == true)
        #expect(removal?.contains("lifesignal.user=\(alice.id)") == true)
        #expect(counted("unregistered", 1))
        expectNoSecretsLogged(["gone-token"])
    }

    @Test func anInvalidTokenIsRemoved() throws {
        fcm.script("not-a-token", [.invalidToken])
        aliceIsAway(withToken: "not-a-token")
        let notificationID = try bobPingsAlice()
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == notificationID } })
        #expect(aliceSecondDeviceHasToken(becoming: false) == false)
        #expect(sends(of: notificationID).map(\.status) == [400])
        #expect(fcm.problems.isEmpty)
        #expect(counted("invalid", 1))
    }

    @Test func aTokenRegisteredAgainIsKept() throws {
        // The device registers a new token while the push to its old one is being refused.
        // Retry-After leaves the test time to register, however slow the machine (a sanitized run).
        fcm.script("old-token", [.unavailable(retryAfter: 3), .unregistered])
        aliceIsAway(withToken: "old-token")
        let notificationID = try bobPingsAlice()
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == notificationID } })
        let device = try alice.addDevice("device-1")
        alice.register(token: "new-token", on: device)
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == notificationID && $0.status == 404 } })
        Thread.sleep(forTimeInterval: 0.5)
        #expect(aliceSecondDeviceHasToken(becoming: true) == true)
        #expect(fcm.problems.isEmpty)
    }

    @Test func aRefusedServiceAccountSendsNothingAndTheBrokerKeepsRouting() throws {
        fcm.state.withLock { $0.refuseTokens = true }
        aliceIsAway(withToken: "good-token")
        let first = try bobPingsAlice()  // routing goes on: Alice's phone has the notification
        // It asks again (the message is retried), and sends nothing meanwhile.
        #expect(fcm.wait { $0.tokenRefusals >= 2 })
        #expect(fcm.sends.isEmpty)
        #expect(broker.process?.isRunning == true)

        fcm.state.withLock { $0.refuseTokens = false }
        let second = try bobPingsAlice(clearingFirst: true)
        #expect(fcm.wait { $0.sends.contains { $0.notificationID == second && $0.status == 200 } })
        #expect(sends(of: second).count == 1)
        #expect(sends(of: first).count <= 1)
        #expect(fcm.problems.isEmpty)
        let refusal = broker.loggedText.split(separator: "\n").first { $0.contains("no FCM access token") }
        #expect(refusal?.contains("warning") == true)
        #expect(refusal?.contains("token endpoint answered 401 (invalid_grant)") == true)
        // Each try without an access token is counted as retried; `auth_failed` is for a push given up.
        #expect(counted("retried", 1, atLeast: true))
        expectNoSecretsLogged(["good-token"])
    }

    @Test func aBadServiceAccountFileStopsTheBrokerAtStart() throws {
        let directory = TemporaryDirectory("fcm-bad")
        let missing = directory.url.appendingPathComponent("missing.json").path
        let notAKey = directory.url.appendingPathComponent("not-a-key.json")
        try Data(#"{"type": "service_account", "project_id": "p", "client_email": "e", "token_uri": "https://t", "private_key": "nope"}"#.utf8)
            .write(to: notAKey)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: notAKey.path)
        for (path, says) in [(missing, "cannot read"), (notAKey.path, "private_key")] {
            let run = try runCommand(Binaries.broker, ["serve", "--port", "0", "--data-dir", directory.path,
                                                       "--fcm-service-account", path])
            #expect(run.status == 64, "\(run.output)")
            #expect(run.output.contains(says), "\(run.output)")
        }
        // The variable is read too.
        let run = try runCommand(Binaries.broker, ["serve", "--port", "0", "--data-dir", directory.path],
                                 environment: ["LSBROKER_FCM_SERVICE_ACCOUNT": missing])
        #expect(run.status == 64, "\(run.output)")
    }

    @Test func aKeyOthersCanReadOrCredentialsInClearStopTheBrokerAtStart() throws {
        let directory = TemporaryDirectory("fcm-insecure")
        // Bounded: a broker that accepts the settings serves on, and is stopped as the failure it is.
        func serve(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String) {
            let process = Process()
            process.executableURL = Binaries.broker
            process.arguments = ["serve", "--port", "0", "--data-dir", directory.path] + arguments
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            let output = directory.url.appendingPathComponent("serve.out")
            _ = FileManager.default.createFile(atPath: output.path, contents: nil)
            let handle = try FileHandle(forWritingTo: output)
            defer { try? handle.close() }
            (process.standardOutput, process.standardError) = (handle, handle)
            try process.run()
            if !eventually(timeout: .seconds(60), { !process.isRunning }) {
                process.terminate()
                Issue.record("the broker started with \(arguments) \(environment)")
            }
            process.waitUntilExit()
            return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
        }
        // 0644, as a copy made with the default umask would be.
        let readable = try ServiceAccountFile(tokenURI: "https://oauth2.googleapis.com/token")
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: readable.path)
        let wideOpen = try serve(["--fcm-service-account", readable.path])
        #expect(wideOpen.status == 64, "\(wideOpen.output)")
        #expect(wideOpen.output.contains("is mode 644") && wideOpen.output.contains("chmod 600"), "\(wideOpen.output)")

        // Plain http for the sends or for the token endpoint, without the tests' explicit allowance.
        let secure = try ServiceAccountFile(tokenURI: "https://oauth2.googleapis.com/token")
        let plainEndpoint = try serve(["--fcm-service-account", secure.path, "--fcm-endpoint", "http://fcm.example"])
        #expect(plainEndpoint.status == 64, "\(plainEndpoint.output)")
        #expect(plainEndpoint.output.contains("fcm-endpoint 'http://fcm.example' is plain http"), "\(plainEndpoint.output)")
        let plainTokenURI = try serve(["--fcm-service-account", account.path],
                                      environment: ["LSBROKER_FCM_ENDPOINT": "https://fcm.example"])
        #expect(plainTokenURI.status == 64, "\(plainTokenURI.output)")
        #expect(plainTokenURI.output.contains("token_uri '\(fcm.tokenURI)' is plain http"), "\(plainTokenURI.output)")
    }
}
