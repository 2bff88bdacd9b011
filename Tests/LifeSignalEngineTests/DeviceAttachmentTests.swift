import LifeSignalEngine
import LifeSignalProtocol
import Testing

/// A device's `hello`, decided alike by the embedded session and the cluster (§3, §10).
@Suite struct DeviceAttachmentTests {
    private func device(_ id: String, seen: Int64?, token: String? = nil, platform: String? = nil) -> DeviceRecord {
        DeviceRecord(key: DeviceKey(userID: "u", deviceID: id), platform: platform, pushToken: token, lastSeenAt: seen)
    }

    private func attach(_ id: String, platform: String? = nil, stored: [DeviceRecord], online: Set<String> = [],
                        maxOnline: Int = 16, maxStored: Int = 0) throws(ProtocolError) -> DeviceAttachment {
        try DeviceAttachment(DeviceKey(userID: "u", deviceID: id), platform: platform, now: 500,
                             existing: stored.first { $0.key.deviceID == id }, stored: stored,
                             onlineCount: online.count, isOnline: online.contains, maxOnline: maxOnline,
                             maxStored: maxStored)
    }

    @Test func aStoredDeviceKeepsItsTokenAndPlatformUnlessTheHelloNamesOne() throws {
        let stored = [device("a", seen: 1, token: "t", platform: "ios")]
        let again = try attach("a", stored: stored)
        #expect(again.record == device("a", seen: 500, token: "t", platform: "ios"))
        #expect(again.forgotten.isEmpty)
        #expect(try attach("a", platform: "android", stored: stored).record.platform == "android")
    }

    @Test func atMostMaxOnlineAreOnlineButADeviceOnlineAlreadyIsReplacedNotCounted() throws {
        let stored = [device("a", seen: 1), device("b", seen: 2)]
        #expect(throws: ProtocolError(.tooManyDevices, "at most 2 devices may be online at once")) {
            try attach("c", stored: stored, online: ["a", "b"], maxOnline: 2)
        }
        #expect(try attach("b", stored: stored, online: ["a", "b"], maxOnline: 2).record.key.deviceID == "b")
        #expect(try attach("c", stored: stored, online: ["a"], maxOnline: 2).record.key.deviceID == "c")
    }

    @Test func aNewDeviceReplacesTheLeastRecentlySeenOfflineOnePastMaxStored() throws {
        let stored = [device("a", seen: 10), device("b", seen: 5, token: "tb")]
        let attachment = try attach("c", stored: stored, maxStored: 2)
        #expect(attachment.forgotten.map(\.key.deviceID) == ["b"])
        let changes = attachment.changes.map { change -> String in
            switch change {
            case .deleteDevice(let key): "delete \(key.deviceID)"
            case .upsertDevice(let record): "upsert \(record.key.deviceID)"
            default: "\(change)"
            }
        }
        #expect(changes == ["delete b", "upsert c"])
        #expect(throws: ProtocolError.limitExceeded("2 devices are stored and online; none can be replaced")) {
            try attach("c", stored: stored, online: ["a", "b"], maxStored: 2)
        }
        // A device stored already needs no room.
        #expect(try attach("a", stored: stored, online: ["b"], maxStored: 2).forgotten.isEmpty)
    }
}
