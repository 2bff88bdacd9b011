import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules

extension ClusterDevice {
    /// `notifications.list` (§5), read under the user's lock.
    func listNotifications(before: String?, limit: Int, _ request: Request, from connection: ClientConnection) {
        let userID = self.userID
        answer(request, on: connection, { try await $0.notificationPage(of: userID, before: before, limit: limit) },
               finish: { page in
            guard let page else { return .refused(.notFound("no such notification")) }
            return .ok(.notifications(page.notifications, unreadCount: Int64(page.unread)))
        })
    }

    /// `notifications.readAll` (§5), over the unread ones of the history read under the user's lock.
    func readAllNotifications(_ request: Request, from connection: ClientConnection,
                              keeping keep: ClusterExecutor.OperationKeep?,
                              _ rule: @escaping @Sendable (Int, inout Step) -> Reply) {
        let userID = self.userID
        answer(request, on: connection, { executor in
            let history = executor.notificationHistory
            return try await executor.perform(as: userID, now: WallClock.nowMs(), keeping: keep, reading: { connection, logger in
                try await ClusterRows.unreadCount(of: userID, history: history, on: connection, logger: logger)
            }) { step, unread in rule(unread, &step) }
        }, finish: { [self] in committed($0) })
    }

    /// `notifications.read` or `.delete` (§5): `rule` over the user's notification `id`, read
    /// under their lock.
    func changeNotification(_ id: String, _ request: Request, from connection: ClientConnection,
                            keeping keep: ClusterExecutor.OperationKeep?, _ rule: @escaping RequestPlan.NotificationRule) {
        let userID = self.userID
        answer(request, on: connection, { executor in
            let history = executor.notificationHistory
            return try await executor.perform(as: userID, now: WallClock.nowMs(), keeping: keep, reading: { connection, logger in
                try await ClusterRows.notification(id, of: userID, history: history, on: connection, logger: logger)
            }) { (step, notification) throws(ProtocolError) in try rule(notification, &step) }
        }, finish: { [self] in committed($0) })
    }

    /// `device.register` and `device.unregister` (§5): `DeviceRules.changePushToken` over the
    /// user's devices and their push tokens, read under their lock.
    func changePushToken(_ change: PushTokenChange, _ request: Request, from connection: ClientConnection,
                         keeping keep: ClusterExecutor.OperationKeep?) {
        let (userID, deviceID) = (self.userID, self.deviceID)
        answer(request, on: connection, { executor in
            try await executor.perform(as: userID, now: WallClock.nowMs(), keeping: keep, reading: { connection, logger in
                try await ClusterRows.devicesWithPushTokens(of: userID, on: connection, logger: logger)
            }) { (step, devices) throws(ProtocolError) in
                try DeviceRules.changePushToken(change, of: deviceID, of: userID, devices: devices.listed,
                                                pushTokens: devices.pushTokens, in: &step)
            }
        }, finish: { [self] in committed($0) })
    }

    /// `device.revoke` (§12): `rule` over the user's devices, read under their lock. The event
    /// closes the revoked device's connections as it reaches each broker's feed.
    func revokeDevice(_ request: Request, from connection: ClientConnection, keeping keep: ClusterExecutor.OperationKeep?,
                      _ rule: @escaping @Sendable ([DeviceInfo], inout Step) throws(ProtocolError) -> Reply) {
        let userID = self.userID
        answer(request, on: connection, { executor in
            try await executor.perform(as: userID, now: WallClock.nowMs(), keeping: keep, reading: { connection, logger in
                try await ClusterRows.deviceInfos(of: userID, on: connection, logger: logger)
            }) { (step, devices) throws(ProtocolError) in try rule(devices, &step) }
        }, finish: { [self] in committed($0) })
    }

    /// `devices.list` (§5).
    func listDevices(_ request: Request, from connection: ClientConnection) {
        let userID = self.userID
        answer(request, on: connection, { try await $0.deviceInfos(of: userID) }, finish: { devices in
            .ok(.devices(devices))
        })
    }
}
