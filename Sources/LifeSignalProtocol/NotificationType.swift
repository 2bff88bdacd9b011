/// `Notification.type` (PROTOCOL.md §4); also the values of `preferences.mutedTypes`.
public enum NotificationType: String, Sendable, CaseIterable {
    case added, removed, role, ping, pingResponse, alert, alertCancelled, nonResponsive, checkIn
}
