import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL.md §5 device.register / device.unregister / devices.list on a raw socket.
@Suite("Devices and push tokens", .serialized)
struct DeviceTests {
    let broker: BrokerProcess
    init() throws { broker = try BrokerProcess() }

    private func devices(_ connection: RawConnection) -> [String: JSONObject] {
        let list = connection.request(Op.devicesList)?.okFields?["devices"]?.arrayValue ?? []
        var result: [String: JSONObject] = [:]
        for item in list {
            if let object = item.objectValue, let id = object["device"]?.stringValue { result[id] = object }
        }
        return result
    }

    @Test func devicesListShowsEveryDeviceWithItsTokenAndPresence() throws {
        let (phone, alice) = try RawConnection.authenticated(port: broker.port, device: "phone")
        #expect(phone.request(Op.deviceRegister, ["token": "fcm-phone", "platform": "ios"])?.okFields != nil)
        let tablet = try RawConnection(port: broker.port)
        #expect(tablet.hello(alice, device: "tablet")?.okFields != nil)

        var listed = devices(phone)
        #expect(listed["phone"]?["hasToken"]?.boolValue == true)
        #expect(listed["phone"]?["platform"]?.stringValue == "ios")
        #expect(listed["tablet"]?["hasToken"]?.boolValue == false)
        #expect(listed["tablet"]?["online"]?.boolValue == true)

        // A device that said bye is offline, last seen when it left.
        #expect(tablet.request(Op.bye)?.okFields != nil)
        #expect(tablet.waitForClose())
        Thread.sleep(forTimeInterval: 0.1)
        listed = devices(phone)
        #expect(listed["tablet"]?["online"]?.boolValue == false)
        #expect(listed["tablet"]?["lastSeenAt"]?.intValue != nil)

        #expect(phone.request(Op.deviceUnregister)?.okFields != nil)
        #expect(devices(phone)["phone"]?["hasToken"]?.boolValue == false)
    }

    @Test func aTokenThatMovesToAnotherUserLeavesItsFormerDevice() throws {
        let (alice, _) = try RawConnection.authenticated(port: broker.port, name: "Alice", device: "phone")
        let (bob, _) = try RawConnection.authenticated(port: broker.port, name: "Bob", device: "phone")
        #expect(alice.request(Op.deviceRegister, ["token": "same-phone-token"])?.okFields != nil)
        #expect(bob.request(Op.deviceRegister, ["token": "same-phone-token"])?.okFields != nil)
        #expect(devices(alice)["phone"]?["hasToken"]?.boolValue == false)
        #expect(devices(bob)["phone"]?["hasToken"]?.boolValue == true)
    }

    @Test func tokensSurviveAKilledBroker() throws {
        let (phone, alice) = try RawConnection.authenticated(port: broker.port, device: "phone")
        #expect(phone.request(Op.deviceRegister, ["token": "durable-token", "platform": "android"])?.okFields != nil)
        try broker.restart(afterSignal: SIGKILL)
        let again = try RawConnection(port: broker.port)
        #expect(again.hello(alice, device: "tablet")?.okFields != nil)
        let listed = devices(again)
        #expect(listed["phone"]?["hasToken"]?.boolValue == true)
        #expect(listed["phone"]?["platform"]?.stringValue == "android")
        #expect(listed["phone"]?["online"]?.boolValue == false)
    }
}
