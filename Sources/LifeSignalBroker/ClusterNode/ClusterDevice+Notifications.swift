import LifeSignalProtocol
import LifeSignalRules

extension ClusterDevice {
    /// `notifications.list`, `.read`, `.readAll` and `.delete` (§5), read and changed under the
    /// user's lock.
    func handleNotification(_ request: Request, from connection: ClientConnection) throws(ProtocolError) {
        let userID = self.userID
        switch request.op {
        case Op.notificationsList:
            let asked = try request.optionalInt("limit") ?? Int64(Validate.notificationPage)
            guard (1...Int64(Validate.notificationPage)).contains(asked) else {
                throw .badRequest("field 'limit' must be 1…\(Validate.notificationPage)")
            }
            let before = try request.optionalString("before").map { (id) throws(ProtocolError) in
                try Validate.id(id, field: "before")
            }
            answer(request, on: connection, { try await $0.notificationPage(of: userID, before: before, limit: Int(asked)) },
                   finish: { page in
                guard let page else { return .refused(.notFound("no such notification")) }
                return .fields(["notifications": .array(page.notifications.map(\.json)),
                                "unreadCount": .int(Int64(page.unread))])
            })
        case Op.notificationsReadAll:
            answer(request, on: connection, { executor in
                let history = executor.notificationHistory
                return try await executor.perform(as: userID, now: WallClock.nowMs(), reading: { connection, logger in
                    try await ClusterRows.unreadCount(of: userID, history: history, on: connection, logger: logger)
                }) { (step, unread) throws(ProtocolError) in
                    NotificationRules.readAll(unread: unread, of: userID, in: &step)
                }
            }, finish: { [self] in committed($0) })
        default:
            let id = try Validate.id(try request.string("id"), field: "id")
            let isRead = request.op == Op.notificationsRead
            answer(request, on: connection, { executor in
                let history = executor.notificationHistory
                return try await executor.perform(as: userID, now: WallClock.nowMs(), reading: { connection, logger in
                    try await ClusterRows.notification(id, of: userID, history: history, on: connection, logger: logger)
                }) { (step, notification) throws(ProtocolError) in
                    isRead ? try NotificationRules.read(notification, of: userID, in: &step)
                        : try NotificationRules.delete(notification, of: userID, in: &step)
                }
            }, finish: { [self] in committed($0) })
        }
    }

    /// `device.register`, `device.unregister` and `devices.list` (§5): device rows, no events.
    func handleDevice(_ request: Request, from connection: ClientConnection) throws(ProtocolError) {
        let (userID, deviceID) = (self.userID, self.deviceID)
        switch request.op {
        case Op.deviceRegister:
            let token = try Validate.pushToken(try request.string("token"))
            let platform = try request.optionalString("platform").map { (value) throws(ProtocolError) in
                try Validate.platform(value)
            }
            answer(request, on: connection, {
                try await $0.registerPushToken(token, platform: platform, userID: userID, deviceID: deviceID)
            }, finish: { .fields([:]) })
        case Op.deviceUnregister:
            answer(request, on: connection, { try await $0.unregisterPushToken(userID: userID, deviceID: deviceID) },
                   finish: { .fields([:]) })
        default:
            answer(request, on: connection, { try await $0.deviceInfos(of: userID) }, finish: { devices in
                .fields(["devices": .array(devices.map(\.json))])
            })
        }
    }
}
