import LifeSignalProtocol
import Testing

/// Every event passes `DeviceRevocation` on its way to each connection: a `devices.changed`
/// naming a revoked device is found in its frame, and no other frame is taken for one.
@Suite struct DeviceRevocationFrameTests {
    private static let phone = DeviceInfo(device: "phone", hasToken: false, online: true)

    @Test func aRevocationIsFoundInItsFrame() {
        let frame = Outbound.event(seq: 12_345, name: EventName.devicesChanged,
                                   data: Event.devicesChanged([Self.phone], revoked: "tab \"1\"").data)
        #expect(DeviceRevocation.revokedDevice(inEventFrame: frame) == "tab \"1\"")
    }

    @Test func noOtherFrameRevokesAnything() {
        let unrevoked = Event.devicesChanged([Self.phone], revoked: nil)
        let contactNamedLikeIt = Event.contactRemoved(contactID: "devices.changed")
        for event in [unrevoked, contactNamedLikeIt, .notificationsReadAll(count: 1)] {
            #expect(DeviceRevocation.revokedDevice(inEventFrame: Outbound.event(seq: 1, name: event.name, data: event.data)) == nil)
        }
        #expect(DeviceRevocation.revokedDevice(inEventFrame: Outbound.ok(rid: 1, ["revoked": "phone"])) == nil)
        #expect(DeviceRevocation.revokedDevice(inEventFrame: []) == nil)
        #expect(DeviceRevocation.revokedDevice(inEventFrame: Array(#"{"op":"event","seq":"#.utf8)) == nil)
    }
}
