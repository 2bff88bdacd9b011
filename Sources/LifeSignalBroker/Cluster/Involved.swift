import LifeSignalRules
/// Who a request of a user touches besides them, so that the executor locks exactly those users.
public enum Involved: Sendable {
    /// Only the user.
    case nobody
    /// Users the request names (the contact of a ping): locked at once.
    case named(Set<String>)
    /// The user's responders, or every contact, as their account says: read once without a lock
    /// to know whom to lock, and checked again under the lock.
    case responders
    case allContacts

    /// The users involved when the user's side of their relationships is `contacts`.
    func ids(in contacts: [String: ContactRecord]) -> Set<String> {
        switch self {
        case .nobody: []
        case .named(let ids): ids
        case .responders: Set(contacts.values.filter(\.isResponder).map(\.contactID))
        case .allContacts: Set(contacts.keys)
        }
    }

    /// Whether the ids follow from the request alone.
    var isNamed: Bool {
        switch self {
        case .nobody, .named: true
        case .responders, .allContacts: false
        }
    }
}
