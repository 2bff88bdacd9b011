import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL.md §5 device.register / device.unregister / devices.list on a raw socket, and §12's
/// `devices.changed` when a push token changes.
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
        // A new token that names no platform keeps the device's.
        #expect(phone.request(Op.deviceRegister, ["token": "fcm-phone-2"])?.okFields != nil)
        #expect(devices(phone)["phone"]?["platform"]?.stringValue == "ios")
        #expect(listed["tablet"]?["hasToken"]?.boolValue == false)
        #expect(listed["tablet"]?["online"]?.boolValue == true)

        // A device that said bye is offline, last seen when it left.
        #expect(tablet.request(Op.bye)?.okFields != nil)
        #expect(tablet.waitForClose())
        #expect(eventually {
            listed = devices(phone)
            return listed["tablet"]?["online"]?.boolValue == false
        }, "the broker sees the tablet go")
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

    /// §12: `devices.changed` when a device's push token changes, to each of the user's devices (on
    /// a cluster, on different brokers): a new token or platform, a token taken from another of
    /// the user's devices, a token removed. The token and platform a device already has change
    /// nothing.
    @Test func aPushTokenChangeIsToldToEveryDeviceOfTheUser() throws {
        let alice = try Person("Alice", port: broker.port, devices: 2)
        _ = alice.settle()
        let (phone, tablet) = (alice.devices[0], alice.devices[1])
        #expect(phone.request(Op.deviceRegister, ["token": "fcm-phone", "platform": "ios"])?.okFields != nil)
        #expect(phone.request(Op.deviceRegister, ["token": "fcm-phone"])?.okFields != nil)
        #expect(phone.request(Op.deviceRegister, ["token": "fcm-phone", "platform": "ios"])?.okFields != nil)
        #expect(tablet.request(Op.deviceRegister, ["token": "fcm-phone", "platform": "android"])?.okFields != nil)
        #expect(tablet.request(Op.deviceUnregister)?.okFields != nil)
        #expect(phone.request(Op.deviceUnregister)?.okFields != nil)

        // Each change as (device, platform, hasToken) by device.
        let expected: [[String]] = [
            ["device-0 ios token", "device-1 - none"],
            ["device-0 ios none", "device-1 android token"],
            ["device-0 ios none", "device-1 android none"],
        ]
        for events in alice.settle() {
            let changes = events.named(EventName.devicesChanged).map { event in
                (event.data["devices"]?.arrayValue ?? []).compactMap(\.objectValue).map { device in
                    [device["device"]?.stringValue ?? "?", device["platform"]?.stringValue ?? "-",
                     device["hasToken"]?.boolValue == true ? "token" : "none"].joined(separator: " ")
                }
            }
            #expect(changes == expected)
        }
    }
}
