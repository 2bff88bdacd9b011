import LifeSignalEngine
import LifeSignalProtocol

extension UserSession {
    /// Makes room for a device this user has never had, under `maxStoredDevices` (§10): every
    /// stored device with a token is pushed each notification, so new device ids must not pile
    /// up. The least recently seen offline devices are forgotten here, and the changes returned
    /// delete their rows (and tokens) in the new device's transaction. When too few are offline
    /// (possible only if more devices may be online than stored) it throws `limit_exceeded` and
    /// changes nothing.
    func makeRoom(forDevice deviceID: String) throws(ProtocolError) -> [StoreChange] {
        guard devices[deviceID] == nil else { return [] }
        guard let forgotten = StoredDeviceQuota.devicesToForget(
            stored: devices.values, limit: configuration.maxStoredDevices, isOnline: { online[$0] != nil })
        else {
            throw .limitExceeded("\(configuration.maxStoredDevices) devices are stored and online; none can be replaced")
        }
        return forgotten.map { record in
            devices[record.key.deviceID] = nil
            if let token = record.pushToken {
                broker.onLoop { $0.releasePushToken(token, from: record.key) }
            }
            return .deleteDevice(record.key)
        }
    }
}
