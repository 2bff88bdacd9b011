import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §12, device credentials: `register` with `device` gives that device a token of its
/// own, valid only with its own device id; the account's token stays valid for every device.
@Suite("Device credentials: a device's own token", .serialized)
struct DeviceCredentialTests {
    let broker: BrokerProcess

    init() throws {
        broker = try BrokerProcess()
    }

    @Test func aRegisteringDevicesTokenLetsOnlyThatDeviceIn() throws {
        let setup = try RawConnection(port: broker.port)
        let fields = try #require(setup.request(Op.register, ["name": "Alice", "device": "phone", "platform": "ios"])?.okFields)
        let userID = try #require(fields["user"]?.objectValue?["id"]?.stringValue)
        let account = Credential(userID: userID, token: try #require(fields["token"]?.stringValue))
        let phone = Credential(userID: userID, token: try #require(fields["deviceToken"]?.stringValue))
        #expect(phone.token != account.token)

        #expect(try RawConnection(port: broker.port).hello(phone, device: "phone", version: 2)?.okFields != nil)
        let elsewhere = try RawConnection(port: broker.port)
        #expect(elsewhere.hello(phone, device: "tablet", version: 2)?.errorCode == .unauthenticated)
        #expect(try RawConnection(port: broker.port).hello(account, device: "tablet", version: 2)?.okFields != nil)

        // Without a device, no device token: as before.
        let plain = try #require(try RawConnection(port: broker.port).request(Op.register, ["name": "Bob"])?.okFields)
        #expect(plain["deviceToken"] == nil && plain["token"] != nil)

        // The account goes, and the device's token with it.
        let alice = try RawConnection(port: broker.port)
        _ = alice.hello(account, device: "laptop", version: 2)
        _ = alice.next()
        #expect(alice.request(Op.accountDelete, ["confirm": "Alice"])?.okFields != nil)
        #expect(try RawConnection(port: broker.port).hello(phone, device: "phone", version: 2)?.errorCode == .unauthenticated)
    }
}

extension DeviceCredentialTests {
    /// `device.link`: 8 characters of [A-Z2-9] without 0, O, 1 or I, valid five minutes; a new
    /// code each time.
    @Test func aLinkCodeLooksAsTheProtocolSays() throws {
        let (alice, _) = try RawConnection.authenticated(port: broker.port)
        let first = try #require(alice.request(Op.deviceLink)?.okFields)
        let code = try #require(first["code"]?.stringValue)
        #expect(code.count == 8 && code.allSatisfy { "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains($0) })
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        let expiresAt = try #require(first["expiresAt"]?.intValue)
        #expect((now + 4 * 60_000...now + 6 * 60_000).contains(expiresAt))
        #expect(alice.request(Op.deviceLink)?.okFields?["code"]?.stringValue != code)
    }
}

extension DeviceCredentialTests {
    /// `signin`: a new device spends a code once and gets its own token; a spent or unknown code
    /// is `unauthenticated` and closes.
    @Test func aLinkedDeviceSignsInOnceWithItsCode() throws {
        let (alice, credential) = try RawConnection.authenticated(port: broker.port)
        let code = try #require(alice.request(Op.deviceLink)?.okFields?["code"]?.stringValue)

        let tablet = try RawConnection(port: broker.port)
        let signedIn = try #require(tablet.request(Op.signin, ["code": .string(code), "device": "tablet"])?.okFields)
        #expect(signedIn["user"]?.objectValue?["id"]?.stringValue == credential.userID)
        let token = Credential(userID: credential.userID, token: try #require(signedIn["deviceToken"]?.stringValue))
        // The account's devices are told, the new one listed with its credential.
        let changed = alice.settle().named(EventName.devicesChanged)
        #expect(changed.count == 1, "\(changed)")
        let tabletEntry = changed.first?.data["devices"]?.arrayValue?.compactMap(\.objectValue)
            .first { $0["device"]?.stringValue == "tablet" }
        #expect(tabletEntry?["hasCredential"] == .bool(true) && tabletEntry?["linkedAt"]?.intValue != nil)
        #expect(changed.first?.data["revoked"] == nil)
        #expect(tablet.hello(token, device: "tablet", version: 2)?.okFields != nil, "signin, then hello on one connection")
        #expect(try RawConnection(port: broker.port).hello(token, device: "phone", version: 2)?.errorCode == .unauthenticated)

        let again = try RawConnection(port: broker.port)
        #expect(again.request(Op.signin, ["code": .string(code), "device": "laptop"])?.errorCode == .unauthenticated)
        #expect(again.waitForClose())
        let unknown = try RawConnection(port: broker.port)
        #expect(unknown.request(Op.signin, ["code": "ZZZZ2222", "device": "laptop"])?.errorCode == .unauthenticated)
    }

    /// Sign-ins with one code sent at once: exactly one gets the device, the rest
    /// `unauthenticated`, and no store write fails on the way (the embedded session refuses a
    /// code it spent already rather than let the second commit fail and reload the user).
    @Test func signInsRacingWithOneCodeLetExactlyOneIn() throws {
        let (alice, _) = try RawConnection.authenticated(port: broker.port)
        let code = try #require(alice.request(Op.deviceLink)?.okFields?["code"]?.stringValue)
        let devices = try (0..<8).map { _ in try RawConnection(port: broker.port) }
        let rids = devices.enumerated().map { index, device in
            device.send(Op.signin, ["code": .string(code), "device": .string("tablet-\(index)")])
        }
        let answers = zip(devices, rids).map { device, rid in device.response(to: rid) }
        #expect(answers.filter { $0?.okFields != nil }.count == 1, "\(answers)")
        #expect(answers.filter { $0?.errorCode == .unauthenticated }.count == 7, "\(answers)")
        #expect(!broker.loggedText.contains("store write failed"))
        // Alice's devices are told of the one device linked.
        #expect(alice.settle().named(EventName.devicesChanged).count == 1)
    }
}
