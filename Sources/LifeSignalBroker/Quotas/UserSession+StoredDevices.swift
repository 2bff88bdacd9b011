import LifeSignalEngine
import LifeSignalProtocol

extension UserSession {
    /// Forgets the devices a new one replaces under `maxStoredDevices` (§10, `DeviceAttachment`):
    /// every stored device with a token is pushed each notification, so new device ids must not
    /// pile up. Their rows (and tokens) are deleted in the new device's transaction.
    func forget(_ forgotten: [DeviceRecord]) {
        for record in forgotten {
            devices[record.key.deviceID] = nil
            if let token = record.pushToken {
                broker.onLoop { $0.releasePushToken(token, from: record.key) }
            }
        }
    }
}
