import LifeSignalProtocol

// Notifications (PROTOCOL.md §5).
extension LifeSignalClient {
    /// `notifications.list`: up to `limit` (1–100) notifications older than `before`, newest first.
    public func listNotifications(limit: Int? = nil, before: String? = nil) async throws -> NotificationPage {
        let result = try await request(.notificationsList(before: before, limit: limit ?? Validate.notificationPage))
        return try Self.decode { () throws(ProtocolError) in try NotificationPage(fields: result) }
    }

    /// `notifications.read`.
    public func markNotificationRead(id: String) async throws {
        _ = try await request(.notificationsRead(id: id))
    }

    /// `notifications.readAll`; returns how many were marked read.
    @discardableResult
    public func markAllNotificationsRead() async throws -> Int64 {
        let fields = try await request(.notificationsReadAll)
        return try Self.decode { () throws(ProtocolError) in try fields.int("count") }
    }

    /// `notifications.delete`.
    public func deleteNotification(id: String) async throws {
        _ = try await request(.notificationsDelete(id: id))
    }
}
