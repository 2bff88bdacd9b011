import LifeSignalEngine
import LifeSignalProtocol

extension UserSession {
    /// `device.register` and `device.unregister` (§5). A token is one phone's address, so if
    /// another device held it, it moves here.
    func changePushToken(_ change: PushTokenChange, device connection: ClientConnection,
                         _ mutation: inout Mutation) throws(ProtocolError) -> Reply {
        guard let deviceID = connection.activeDeviceID, let record = devices[deviceID] else {
            throw ProtocolError(.internal, "device is not attached")
        }
        switch change {
        case .register(let token, _):
            // The holder's memory changes with this request's: a failed commit reloads both.
            if let holder = broker.onLoop({ $0.takePushToken(token, for: record.key) }), holder !== self {
                holder.onLoop { $0.join(&mutation) }
            }
        case .unregister:
            guard let token = record.pushToken else { return .empty }
            broker.onLoop { $0.releasePushToken(token, from: record.key) }
        }
        devices[deviceID] = change.applied(to: record)
        mutation.changes.append(change.storeChange(for: record.key))
        join(&mutation)
        return .empty
    }

    /// Another device took `token`: forget it here (the store clears it in the same transaction).
    func dropPushToken(_ token: String, deviceID: String) {
        if devices[deviceID]?.pushToken == token { devices[deviceID]?.pushToken = nil }
    }
}

extension UserSession {
    /// The device loses its push token, as by `device.unregister`: a token the push service
    /// rejected (`ifToken`: only while the device still holds that very token; it may have
    /// registered a new one meanwhile), or any token, at an operator's request (`lsbroker users
    /// --remove-token`). `done` hears whether the device is known, once the store holds the change.
    func removePushToken(deviceID: String, ifToken token: String?,
                         done: (@Sendable (Result<PushTokenRemoval, any Error>) -> Void)? = nil) {
        pin()
        defer { unpin() }  // a user loaded only for this is unloaded again afterwards
        guard !isStale else { done?(.failure(ProtocolError(.overloaded, "the user is being reloaded"))); return }
        guard let record = devices[deviceID] else { done?(.success(.unknownDevice)); return }
        guard let held = record.pushToken, token == nil || held == token else { done?(.success(.noToken)); return }
        broker.onLoop { $0.releasePushToken(held, from: record.key) }
        devices[deviceID] = PushTokenChange.unregister.applied(to: record)
        var mutation = Mutation(now: WallClock.nowMs())
        mutation.changes.append(.clearPushToken(record.key, ifToken: held))
        join(&mutation)
        guard let done else { return commit(mutation) }
        commit(mutation, committed: { result in done(result.map { PushTokenRemoval.removed }) })
    }
}

/// What became of a request to remove a device's push token.
public enum PushTokenRemoval: Sendable, Equatable {
    case removed
    case noToken
    case unknownDevice
    case unknownUser
}
