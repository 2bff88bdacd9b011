import LifeSignalEngine
import LifeSignalProtocol

extension UserSession {
    /// `device.register`: the push token of this (user, device). A token is one phone's
    /// address, so if another device held it, it moves here (§5).
    func registerPushToken(_ token: String, platform: String?, device connection: ClientConnection,
                           _ mutation: inout Mutation) throws(ProtocolError) -> Reply {
        guard let deviceID = connection.activeDeviceID, var record = devices[deviceID] else {
            throw ProtocolError(.internal, "device is not attached")
        }
        // The holder's memory changes with this request's: a failed commit reloads both.
        if let holder = broker.onLoop({ $0.takePushToken(token, for: record.key) }), holder !== self {
            holder.onLoop { $0.join(&mutation) }
        }
        record.pushToken = token
        if let platform { record.platform = platform }
        devices[deviceID] = record
        mutation.changes.append(.movePushToken(token: token, owner: record.key))
        mutation.changes.append(.upsertDevice(record))
        join(&mutation)
        return .empty
    }

    /// `device.unregister`: this device gets no more pushes.
    func unregisterPushToken(device connection: ClientConnection, _ mutation: inout Mutation) -> Reply {
        guard let deviceID = connection.activeDeviceID, var record = devices[deviceID],
              let token = record.pushToken else { return .empty }
        broker.onLoop { $0.releasePushToken(token, from: record.key) }
        record.pushToken = nil
        devices[deviceID] = record
        mutation.changes.append(.upsertDevice(record))
        join(&mutation)
        return .empty
    }

    /// Another device took `token`: forget it here (the store clears it in the same transaction).
    func dropPushToken(_ token: String, deviceID: String) {
        if devices[deviceID]?.pushToken == token { devices[deviceID]?.pushToken = nil }
    }
}

extension UserSession {
    /// The push service rejected `token`: the device loses it, as by `device.unregister`, but
    /// only while it still holds that very token (it may have registered a new one meanwhile).
    func dropRejectedPushToken(_ token: String, deviceID: String) {
        pin()
        defer { unpin() }  // a user loaded only for this is unloaded again afterwards
        guard !isStale, var record = devices[deviceID], record.pushToken == token else { return }
        broker.onLoop { $0.releasePushToken(token, from: record.key) }
        record.pushToken = nil
        devices[deviceID] = record
        var mutation = Mutation(now: WallClock.nowMs())
        mutation.changes.append(.upsertDevice(record))
        join(&mutation)
        commit(mutation)
    }
}
