/// `Notification.contactData.action` (PROTOCOL.md §4).
public enum ContactAction: String, Sendable, CaseIterable {
    case added, removed, roleChanged, ping, pingResponded, alert, alertCancelled, nonResponsive, checkedIn
}
