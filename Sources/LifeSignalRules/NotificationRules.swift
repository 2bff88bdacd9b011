import LifeSignalProtocol

/// `notifications.read`, `notifications.delete` and `notifications.readAll` (§5), given the
/// user's notification as the executor read it (nil: none of theirs has that id).
public enum NotificationRules {
    /// `notification.updated` to the user's devices; nothing if it was read already.
    public static func read(_ notification: Notification?, of userID: String, in step: inout Step) throws(ProtocolError)
        -> JSONObject
    {
        guard var notification else { throw .notFound("no such notification") }
        guard !notification.isRead else { return [:] }
        notification.isRead = true
        step.record(.setNotificationRead(id: notification.id), telling: userID, .notificationUpdated(notification))
        return [:]
    }

    /// `notification.deleted` to the user's devices.
    public static func delete(_ notification: Notification?, of userID: String, in step: inout Step) throws(ProtocolError)
        -> JSONObject
    {
        guard let notification else { throw .notFound("no such notification") }
        step.record(.deleteNotification(id: notification.id), telling: userID, .notificationDeleted(id: notification.id))
        return [:]
    }

    /// Every notification read; `notifications.readAll` to the user's devices when any was unread.
    public static func readAll(unread: Int, of userID: String, in step: inout Step) -> JSONObject {
        guard unread > 0 else { return ["count": 0] }
        step.record(.markAllNotificationsRead(userID: userID), telling: userID,
                    .notificationsReadAll(count: Int64(unread)))
        return ["count": .int(Int64(unread))]
    }
}
