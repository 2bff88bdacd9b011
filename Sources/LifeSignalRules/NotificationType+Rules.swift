import LifeSignalProtocol

extension NotificationType {
    /// The fixed title of each type (PROTOCOL §5, §8).
    public var title: String {
        switch self {
        case .added: "Contact Added"
        case .removed: "Contact Removed"
        case .role: "Role Changed"
        case .ping: "Ping"
        case .pingResponse: "Ping Response"
        case .alert: "Emergency Alert"
        case .alertCancelled: "Alert Cancelled"
        case .nonResponsive: "Missed Check-in"
        case .checkIn: "Checked In"
        }
    }

    /// `contactData.action` for a notification of this type (§4).
    public var action: ContactAction {
        switch self {
        case .added: .added
        case .removed: .removed
        case .role: .roleChanged
        case .ping: .ping
        case .pingResponse: .pingResponded
        case .alert: .alert
        case .alertCancelled: .alertCancelled
        case .nonResponsive: .nonResponsive
        case .checkIn: .checkedIn
        }
    }
}

extension ContactRole {
    /// How `role` notifications name a role: "You changed Bob's role to responder and dependent."
    public var phrase: String {
        switch self {
        case .both: "responder and dependent"
        case .responder: "responder"
        case .dependent: "dependent"
        case .none: "no role"
        }
    }
}
