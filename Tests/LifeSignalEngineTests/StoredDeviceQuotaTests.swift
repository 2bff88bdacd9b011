import LifeSignalEngine
import Testing

@Suite struct StoredDeviceQuotaTests {
    private func device(_ id: String, seen: Int64?) -> DeviceRecord {
        DeviceRecord(key: DeviceKey(userID: "u", deviceID: id), platform: nil, pushToken: nil, lastSeenAt: seen)
    }

    private func forget(_ stored: [DeviceRecord], limit: Int, online: Set<String> = []) -> [String]? {
        StoredDeviceQuota.devicesToForget(stored: stored, limit: limit) { online.contains($0) }?
            .map(\.key.deviceID)
    }

    @Test func belowTheLimitNothingIsForgotten() {
        #expect(forget([device("a", seen: 1)], limit: 2) == [])
        #expect(forget([device("a", seen: 1), device("b", seen: 2)], limit: 0) == [])
    }

    @Test func theLeastRecentlySeenOfflineDeviceMakesRoom() {
        let stored = [device("a", seen: 10), device("b", seen: 5), device("c", seen: 20)]
        #expect(forget(stored, limit: 3) == ["b"])
        #expect(forget(stored, limit: 3, online: ["b"]) == ["a"])
        // Never seen counts as seen longest ago; ties go by id.
        #expect(forget(stored + [device("d", seen: nil)], limit: 4) == ["d"])
        #expect(forget([device("y", seen: 5), device("x", seen: 5)], limit: 2) == ["x"])
    }

    @Test func aHistoryAboveTheLimitIsCutBackToIt() {
        let stored = (0..<10).map { device("d\($0)", seen: Int64($0)) }
        #expect(forget(stored, limit: 4) == ["d0", "d1", "d2", "d3", "d4", "d5", "d6"])
    }

    @Test func withTooFewOfflineNoneIsForgotten() {
        let stored = [device("a", seen: 1), device("b", seen: 2)]
        #expect(forget(stored, limit: 2, online: ["a", "b"]) == nil)
        #expect(forget(stored + [device("c", seen: 3)], limit: 2, online: ["a", "b"]) == nil)
    }
}
