import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §12, `device.revoke`: the device's token, push token and stored device go; its
/// connections are closed with `revoked` (on a cluster, on whichever broker holds them) and the
/// user's other devices get `devices.changed`. Revoking the calling device signs it out: `ok`,
/// then close. `devices.list` shows `linkedAt` and `hasCredential`.
@Suite("device.revoke: the device is closed and forgotten, the others told", .serialized)
struct DeviceRevocationTests {
    let broker: BrokerProcess
    /// Alice, with two devices saying hello with the account's token (on a cluster, on two brokers).
    let alice: Person

    init() throws {
        broker = try BrokerProcess()
        alice = try Person("Alice", port: broker.port, devices: 2)
    }

    /// A tablet signed in with a link code from Alice's phone, online, its own token kept.
    private func signedInTablet() throws -> (connection: RawConnection, token: Credential) {
        let code = try #require(alice.ok(Op.deviceLink)["code"]?.stringValue)
        let tablet = try RawConnection(port: broker.port)
        let signedIn = try #require(tablet.request(Op.signin, ["code": .string(code), "device": "tablet"])?.okFields)
        let token = Credential(userID: alice.id, token: try #require(signedIn["deviceToken"]?.stringValue))
        #expect(tablet.hello(token, device: "tablet", version: 2)?.okFields != nil)
        _ = tablet.next()  // its snapshot
        #expect(tablet.request(Op.deviceRegister, ["token": "fcm-tablet", "platform": "android"])?.okFields != nil)
        _ = tablet.settle()  // its own devices.changed
        return (tablet, token)
    }

    @Test func theListShowsWhichDevicesHaveTheirOwnCredential() throws {
        let before = Int64(Date().timeIntervalSince1970 * 1000)
        _ = try signedInTablet()
        let devices = try #require(alice.ok(Op.devicesList)["devices"]?.arrayValue).compactMap(\.objectValue)
        let byID = Dictionary(devices.map { ($0["device"]?.stringValue ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        #expect(Set(byID.keys) == ["device-0", "device-1", "tablet"])
        #expect(byID["tablet"]?["hasCredential"] == .bool(true))
        #expect((byID["tablet"]?["linkedAt"]?.intValue ?? 0) >= before)
        #expect(byID["device-0"]?["hasCredential"] == .bool(false))
        #expect(byID["device-0"]?["linkedAt"] == .null)
    }

    @Test func theRevokedDeviceIsClosedAndTheOthersTold() throws {
        let (tablet, token) = try signedInTablet()
        _ = alice.settle()

        #expect(alice.request(Op.deviceRevoke, ["device": "tablet"])?.okFields != nil)
        #expect(tablet.waitForClose())
        var messages: [ServerMessage] = []
        while let message = tablet.next(timeout: .zero) { messages.append(message) }
        #expect(messages.contains { $0.errorCode == .revoked }, "\(messages)")
        #expect(!messages.contains { if case .event(_, EventName.devicesChanged, _) = $0 { true } else { false } })

        for events in alice.settle() {
            let changed = events.named(EventName.devicesChanged)
            #expect(changed.count == 1, "\(events)")
            #expect(changed.first?.data["revoked"]?.stringValue == "tablet")
            let listed = changed.first?.data["devices"]?.arrayValue?.compactMap { $0.objectValue?["device"]?.stringValue }
            #expect(listed == ["device-0", "device-1"])
        }
        // Its token stops working on every broker; the account's still lets a device in.
        for _ in 0..<2 {
            #expect(try RawConnection(port: broker.port).hello(token, device: "tablet")?.errorCode == .unauthenticated)
        }
        let names = alice.ok(Op.devicesList)["devices"]?.arrayValue?.compactMap { $0.objectValue?["device"]?.stringValue }
        #expect(names == ["device-0", "device-1"], "the stored device and its push token went")
        #expect(try RawConnection(port: broker.port).hello(alice.credential, device: "tablet")?.okFields != nil)
    }

    /// A sign-out that was refused (here a malformed `opId`) signs nothing out: the device's
    /// revocation by another device later is `revoked`, as for any device.
    @Test func aRefusedSignOutLeavesTheDeviceToBeRevokedAsAnyOther() throws {
        let (tablet, _) = try signedInTablet()
        #expect(tablet.request(Op.deviceRevoke, ["device": "tablet", "opId": "not an op id!"])?.errorCode == .badRequest)
        #expect(alice.request(Op.deviceRevoke, ["device": "tablet"])?.okFields != nil)
        #expect(tablet.waitForClose())
        var messages: [ServerMessage] = []
        while let message = tablet.next(timeout: .zero) { messages.append(message) }
        #expect(messages.contains { $0.errorCode == .revoked }, "\(messages)")
    }

    @Test func revokingTheCallingDeviceSignsItOut() throws {
        let (tablet, _) = try signedInTablet()
        #expect(tablet.request(Op.deviceRevoke, ["device": "tablet"])?.okFields != nil)
        #expect(tablet.waitForClose())
        #expect(tablet.next(timeout: .zero)?.errorCode == nil, "signing out is ok, then close: no error")
        for events in alice.settle() {
            // Told of the tablet's linking, its push token, then its revocation.
            let revoked = events.named(EventName.devicesChanged).map { $0.data["revoked"]?.stringValue }
            #expect(revoked == [nil, nil, "tablet"], "\(events)")
        }
    }

    @Test func onlyAKnownDeviceIsRevoked() throws {
        #expect(alice.request(Op.deviceRevoke, ["device": "nowhere"])?.errorCode == .notFound)
        #expect(alice.request(Op.deviceRevoke, [:])?.errorCode == .badRequest)
        #expect(alice.request(Op.deviceRevoke, ["device": 7])?.errorCode == .badRequest)
        for events in alice.settle() { #expect(events.isEmpty, "a refusal tells nobody: \(events)") }
    }

    /// A device whose connection said hello with the account's token is revoked all the same:
    /// its stored device goes and its connection is closed.
    @Test func aDeviceOnTheAccountTokenIsRevokedToo() throws {
        #expect(alice.request(Op.deviceRevoke, ["device": "device-1"])?.okFields != nil)
        let other = alice.devices[1]
        #expect(other.waitForClose())
        var codes: [ProtocolError.Code] = []
        while let message = other.next(timeout: .zero) { if let code = message.errorCode { codes.append(code) } }
        #expect(codes == [.revoked])
    }
}
