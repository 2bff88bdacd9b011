import LifeSignalProtocol

/// `notifications.read`, `notifications.delete` and `notifications.readAll` (§5), given the
/// user's notification as the executor read it (nil: none of theirs has that id).
public enum NotificationRules {
    /// `notification.updated` to the user's devices; nothing if it was read already.
    public static func read(_ notification: Notification?, of userID: String, in step: inout Step) throws(ProtocolError)
        -> Reply
    {
        guard var notification else { throw .notFound("no such notification") }
        guard !notification.isRead else { return .empty }
        notification.isRead = true
        step.record(.setNotificationRead(id: notification.id), telling: userID, .notificationUpdated(notification))
        return .empty
    }

    /// `notification.deleted` to the user's devices.
    public static func delete(_ notification: Notification?, of userID: String, in step: inout Step) throws(ProtocolError)
        -> Reply
    {
        guard let notification else { throw .notFound("no such notification") }
        step.record(.deleteNotification(id: notification.id), telling: userID, .notificationDeleted(id: notification.id))
        return .empty
    }

    /// Every notification read; `notifications.readAll` to the user's devices when any was unread.
    public static func readAll(unread: Int, of userID: String, in step: inout Step) -> Reply {
        guard unread > 0 else { return .readAll(count: 0) }
        step.record(.markAllNotificationsRead(userID: userID), telling: userID,
                    .notificationsReadAll(count: Int64(unread)))
        return .readAll(count: Int64(unread))
    }
}
