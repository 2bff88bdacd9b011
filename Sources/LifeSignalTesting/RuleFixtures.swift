import LifeSignalProtocol
import LifeSignalRules
import Synchronization

/// Accounts for rule tests: users by name, linked as the test says. No broker, no store.
package enum RuleFixtures {
    package static let now: Int64 = 1_000_000

    package static func account(_ name: String, checkedInAt: Int64? = nil) -> Account {
        var user = User(id: "u_\(name)", name: name, qrCode: "qr_\(name)", createdAt: 0)
        if let checkedInAt {
            user.lastCheckInAt = checkedInAt
            user.checkInDeadline = checkedInAt + user.checkInIntervalSec * 1000
        }
        return Account(user: user, contacts: [:])
    }

    /// `responder` watches over `dependent`: both sides of the relationship.
    package static func link(responder: inout Account, dependent: inout Account) {
        responder.contacts[dependent.id] = ContactRecord(
            userID: responder.id, contactID: dependent.id, isResponder: false, isDependent: true, addedAt: 0)
        dependent.contacts[responder.id] = ContactRecord(
            userID: dependent.id, contactID: responder.id, isResponder: true, isDependent: false, addedAt: 0)
    }

    /// Alice watches over Bob.
    package static func aliceWatchesBob(bobCheckedInAt: Int64? = nil) -> Step {
        var (alice, bob) = (account("Alice"), account("Bob", checkedInAt: bobCheckedInAt))
        link(responder: &alice, dependent: &bob)
        return Step(now: now, accounts: [alice, bob], ids: SequentialIDs())
    }
}

/// Ids in the order they are asked for, so that a rule test's ids are known in advance.
package final class SequentialIDs: IDSource {
    private let issued = Mutex(0)

    package init() {}

    package func newID(prefix: String, nowMs: Int64) -> String { "\(prefix)_\(take())" }
    package func newQRCode() -> String { "QR\(take())" }

    private func take() -> Int { issued.withLock { $0 += 1; return $0 } }
}

package extension Step {
    /// The events of `userID`, by name, in order.
    func events(of userID: String) -> [String] {
        effects.compactMap { if case .event(userID, let name, _) = $0 { name } else { nil } }
    }

    /// The notifications of `userID`, in order.
    func notifications(of userID: String) -> [LifeSignalProtocol.Notification] {
        effects.compactMap { if case .notification(userID, let notification) = $0 { notification } else { nil } }
    }

    /// The contact documents sent to `userID` in `contact.updated`, in order.
    func contactUpdates(of userID: String) -> [Contact] {
        effects.compactMap {
            guard case .event(userID, let name, let data) = $0,
                  case .contactUpdated(let contact)? = try? Event(name: name, data: data.json) else { return nil }
            return contact
        }
    }
}
