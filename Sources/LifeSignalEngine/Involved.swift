import LifeSignalRules

/// Who a request of a user touches besides them: the accounts a store loads (embedded) or locks
/// (PostgreSQL) for its step, exactly those.
public enum Involved: Sendable, Equatable {
    /// Only the user.
    case nobody
    /// Users the request names (the contact of a ping): locked at once.
    case named(Set<String>)
    /// The user's responders, or every contact, as their account says: read once without a lock
    /// to know whom to lock, and checked again under the lock.
    case responders
    case allContacts

    /// The users involved when the user's side of their relationships is `contacts`.
    package func ids(in contacts: [String: ContactRecord]) -> Set<String> {
        switch self {
        case .nobody: []
        case .named(let ids): ids
        case .responders: Set(contacts.values.filter(\.isResponder).map(\.contactID))
        case .allContacts: Set(contacts.keys)
        }
    }

    /// The involved users who are among `contacts`: a named user who is none is left out, so an
    /// executor loads no stranger and the rules find no such contact.
    package func contactIDs(in contacts: [String: ContactRecord]) -> Set<String> {
        guard case .named(let ids) = self else { return self.ids(in: contacts) }
        return ids.allSatisfy { contacts[$0] != nil } ? ids : ids.filter { contacts[$0] != nil }
    }

    /// Whether the ids follow from the request alone.
    package var isNamed: Bool {
        switch self {
        case .nobody, .named: true
        case .responders, .allContacts: false
        }
    }
}
