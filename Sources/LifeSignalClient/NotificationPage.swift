import LifeSignalProtocol

/// One page of `notifications.list`: newest first, plus the user's unread count.
public struct NotificationPage: Sendable, Equatable {
    public var notifications: [LifeSignalProtocol.Notification]
    public var unreadCount: Int

    public init(notifications: [LifeSignalProtocol.Notification], unreadCount: Int) {
        self.notifications = notifications
        self.unreadCount = unreadCount
    }
}
