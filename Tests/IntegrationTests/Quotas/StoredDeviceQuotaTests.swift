import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §10 `--max-stored-devices`: a `hello` with a new device id when that many are stored
/// replaces the least recently seen offline device, row and token, durably; with none offline it
/// is `limit_exceeded` and closed.
@Suite("Quota: stored devices", .serialized)
struct StoredDeviceQuotaTests {
    private func deviceList(_ connection: RawConnection) -> [String: JSONObject] {
        var result: [String: JSONObject] = [:]
        for item in connection.request(Op.devicesList)?.okFields?["devices"]?.arrayValue ?? [] {
            if let object = item.objectValue, let id = object["device"]?.stringValue { result[id] = object }
        }
        return result
    }

    @Test func aNewDeviceReplacesTheLeastRecentlySeenOfflineOneWithItsToken() throws {
        let broker = try BrokerProcess(arguments: ["--max-stored-devices", "3"])
        let alice = try Person("Alice", port: broker.port)  // device-0, online throughout
        let first = try alice.addDevice("first")
        alice.register(token: "token-of-first", on: first)
        alice.takeOffline(first, named: "first")
        let second = try alice.addDevice("second")
        alice.register(token: "token-of-second", on: second)
        alice.takeOffline(second, named: "second")

        // Three stored: the fourth takes the place of the one seen longest ago.
        alice.takeOffline(try alice.addDevice("third"), named: "third")
        #expect(Set(deviceList(alice.phone).keys) == ["device-0", "second", "third"])

        // Ten more new ids, each coming and going: still three stored, the newest ones.
        for index in 0..<10 { alice.takeOffline(try alice.addDevice("churn-\(index)"), named: "churn-\(index)") }
        #expect(Set(deviceList(alice.phone).keys) == ["device-0", "churn-8", "churn-9"])

        // Durable, tokens included: after a crash the store holds exactly those, and no token. (A
        // device record is written behind the hello's answer; a check-in's ok comes after it.)
        _ = alice.ok(Op.checkIn)
        try broker.restart(afterSignal: SIGKILL)
        let back = try RawConnection(port: broker.port)
        #expect(back.hello(alice.credential, device: "device-0")?.okFields != nil)
        let stored = deviceList(back)
        #expect(Set(stored.keys) == ["device-0", "churn-8", "churn-9"])
        #expect(stored.values.allSatisfy { $0["hasToken"]?.boolValue == false })
        // A token of a forgotten device is free: nothing of it is left to move.
        #expect(back.request(Op.deviceRegister, ["token": "token-of-second"])?.okFields != nil)
    }

    @Test func withEveryStoredDeviceOnlineANewOneIsRefusedAndClosed() throws {
        let broker = try BrokerProcess(arguments: ["--max-stored-devices", "2", "--max-devices-per-user", "4"])
        let alice = try Person("Alice", port: broker.port, devices: 2)
        let third = try RawConnection(port: broker.port)
        #expect(third.hello(alice.credential, device: "third")?.errorCode == .limitExceeded)
        #expect(third.waitForClose())
        // Nothing changed, and a stored device still connects again.
        #expect(Set(deviceList(alice.phone).keys) == ["device-0", "device-1"])
        let again = try RawConnection(port: broker.port)
        #expect(again.hello(alice.credential, device: "device-1")?.okFields != nil)
    }
}
