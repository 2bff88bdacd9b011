@testable import LifeSignalEngine
import LifeSignalProtocol
import Testing

/// `devices.list` and `devices.changed` (§5, §12) list stored devices and devices with their own
/// credential, by id, whichever store read them.
@Suite struct DeviceListingTests {
    private static func key(_ device: String) -> DeviceKey { DeviceKey(userID: "u_1", deviceID: device) }

    @Test func storedDevicesAndCredentialsAreOneListById() {
        let records = [
            DeviceRecord(key: Self.key("tablet"), platform: "android", pushToken: "t", lastSeenAt: 9),
            DeviceRecord(key: Self.key("laptop"), platform: nil, pushToken: nil, lastSeenAt: nil),
        ]
        let credentials = [
            DeviceCredential(key: Self.key("tablet"), tokenHash: [], linkedAt: 5),
            DeviceCredential(key: Self.key("phone"), tokenHash: [], linkedAt: 3),
        ]
        let listed = DeviceInfo.listing(records, credentials: credentials, online: ["laptop"])
        #expect(listed == [
            DeviceInfo(device: "laptop", hasToken: false, online: true),
            DeviceInfo(device: "phone", hasToken: false, online: false, linkedAt: 3, hasCredential: true),
            DeviceInfo(device: "tablet", platform: "android", hasToken: true, online: false, lastSeenAt: 9, linkedAt: 5,
                       hasCredential: true),
        ])
    }
}
