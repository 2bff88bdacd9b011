import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// `device.register` and `device.unregister` (§5): `DeviceRules.changePushToken` over the
    /// devices in memory, which follow its effects (`carryOut`).
    func changePushToken(_ change: PushTokenChange, device connection: ClientConnection,
                         _ mutation: inout Mutation) throws(ProtocolError) -> Reply {
        guard let deviceID = connection.activeDeviceID else { throw ProtocolError(.internal, "device is not attached") }
        var step = Step(now: mutation.now, accounts: [], ids: RandomIDs())
        let reply = try DeviceRules.changePushToken(change, of: deviceID, of: userID, devices: deviceInfos,
                                                    pushTokens: pushTokens, in: &step)
        carryOut(step, &mutation)
        return reply
    }

    /// A push token moves to `key`'s device. A token is one phone's address: the holder's memory
    /// changes with this request's, and a failed commit reloads both.
    func movePushToken(_ token: String, to key: DeviceKey, platform: String?, _ mutation: inout Mutation) {
        if let holder = broker.onLoop({ $0.takePushToken(token, for: key) }), holder !== self {
            holder.onLoop { $0.join(&mutation) }
        }
        devices[key.deviceID]?.pushToken = token
        if let platform { devices[key.deviceID]?.platform = platform }
    }

    /// `key`'s device has no push token any more.
    func clearPushToken(of key: DeviceKey) {
        guard let token = devices[key.deviceID]?.pushToken else { return }
        broker.onLoop { $0.releasePushToken(token, from: key) }
        devices[key.deviceID]?.pushToken = nil
    }

    /// Another device took `token`: forget it here (the store clears it in the same transaction).
    func dropPushToken(_ token: String, deviceID: String) {
        if devices[deviceID]?.pushToken == token { devices[deviceID]?.pushToken = nil }
    }
}

extension UserSession {
    /// The device loses its push token, as by `device.unregister` (`DeviceRules.removePushToken`):
    /// a token the push service rejected (`ifToken`: only while the device still holds that very
    /// token; it may have registered a new one meanwhile), or any token, at an operator's request
    /// (`lsbroker users --remove-token`). `done` hears whether the device is known, once the store
    /// holds the change.
    func removePushToken(deviceID: String, ifToken token: String?,
                         done: (@Sendable (Result<PushTokenRemoval, any Error>) -> Void)? = nil) {
        pin()
        defer { unpin() }  // a user loaded only for this is unloaded again afterwards
        guard !isStale else { done?(.failure(ProtocolError(.overloaded, "the user is being reloaded"))); return }
        var mutation = Mutation(now: WallClock.nowMs())
        var step = Step(now: mutation.now, accounts: [], ids: RandomIDs())
        let removal = DeviceRules.removePushToken(of: deviceID, of: userID, ifToken: token, devices: deviceInfos,
                                                  pushTokens: pushTokens, in: &step)
        guard removal == .removed else { done?(.success(removal)); return }
        carryOut(step, &mutation)
        guard let done else { return commit(mutation) }
        commit(mutation, committed: { result in done(result.map { removal }) })
    }
}
