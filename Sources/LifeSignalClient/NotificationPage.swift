import LifeSignalProtocol

/// One page of `notifications.list`: newest first, plus the user's unread count.
public struct NotificationPage: Sendable, Equatable {
    public var notifications: [LifeSignalProtocol.Notification]
    public var unreadCount: Int

    public init(notifications: [LifeSignalProtocol.Notification], unreadCount: Int) {
        self.notifications = notifications
        self.unreadCount = unreadCount
    }

    public init(fields: JSONObject) throws(ProtocolError) {
        var notifications: [LifeSignalProtocol.Notification] = []
        for notification in try fields.array("notifications") {
            notifications.append(try LifeSignalProtocol.Notification(json: notification))
        }
        self.notifications = notifications
        guard let unread = Int(exactly: try fields.int("unreadCount")), unread >= 0 else {
            throw .badRequest("field 'unreadCount' must not be negative")
        }
        unreadCount = unread
    }
}
