import LifeSignalProtocol

// Notifications (PROTOCOL.md §5).
extension LifeSignalClient {
    /// `notifications.list`: up to `limit` (1–100) notifications older than `before`, newest first.
    public func listNotifications(limit: Int? = nil, before: String? = nil) async throws -> NotificationPage {
        try await reply(.notificationsList(before: before, limit: limit ?? Validate.notificationPage)) {
            guard case .notifications(let page, let unread) = $0, let unreadCount = Int(exactly: unread) else { return nil }
            return NotificationPage(notifications: page, unreadCount: unreadCount)
        }
    }

    /// `notifications.read`.
    public func markNotificationRead(id: String) async throws {
        _ = try await request(.notificationsRead(id: id))
    }

    /// `notifications.readAll`; returns how many were marked read.
    @discardableResult
    public func markAllNotificationsRead() async throws -> Int64 {
        try await reply(.notificationsReadAll) { if case .readAll(let count) = $0 { count } else { nil } }
    }

    /// `notifications.delete`.
    public func deleteNotification(id: String) async throws {
        _ = try await request(.notificationsDelete(id: id))
    }
}
