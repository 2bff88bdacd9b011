/// What `device.register` and `device.unregister` do to the requesting device's push token,
/// whichever store keeps it: the device's record in memory and the store's change are both
/// derived from it, so they cannot disagree.
package enum PushTokenChange: Sendable, Equatable {
    /// `device.register`: the token moves to the device (with its platform, when one is named).
    case register(token: String, platform: String?)
    /// `device.unregister`: the device gets no more pushes.
    case unregister

    /// The store's change for `device`.
    package func storeChange(for device: DeviceKey) -> StoreChange {
        switch self {
        case .register(let token, let platform): .movePushToken(token: token, to: device, platform: platform)
        case .unregister: .clearPushToken(device, ifToken: nil)
        }
    }

    /// `record` once the change is made.
    package func applied(to record: DeviceRecord) -> DeviceRecord {
        var changed = record
        switch self {
        case .register(let token, let platform):
            changed.pushToken = token
            if let platform { changed.platform = platform }
        case .unregister:
            changed.pushToken = nil
        }
        return changed
    }
}
