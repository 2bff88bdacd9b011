/// Names of broker events (PROTOCOL.md §6), with the field their `data` object carries.
public enum EventName {
    /// `{user}`
    public static let userUpdated = "user.updated"
    /// `{contact}`
    public static let contactUpdated = "contact.updated"
    /// `{contactId}`
    public static let contactRemoved = "contact.removed"
    /// `{notification}`
    public static let notificationAdded = "notification.added"
    /// `{notification}`
    public static let notificationUpdated = "notification.updated"
    /// `{id}`
    public static let notificationDeleted = "notification.deleted"
    /// `{count}`
    public static let notificationsReadAll = "notifications.readAll"
    /// `{devices, revoked?}` (§12)
    public static let devicesChanged = "devices.changed"

    public static let all: [String] = [
        userUpdated, contactUpdated, contactRemoved, notificationAdded, notificationUpdated, notificationDeleted,
        notificationsReadAll, devicesChanged,
    ]
}
