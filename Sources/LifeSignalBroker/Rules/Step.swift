import LifeSignalProtocol

/// One request's run of the rules over the accounts it touches: the rules read and change
/// `accounts` and record their effects. No socket, no actor, no store: a plain value.
public struct Step: Sendable {
    public let now: Int64
    public private(set) var accounts: [String: Account]
    public private(set) var effects: [RuleEffect] = []

    public init(now: Int64, accounts: some Sequence<Account>) {
        self.now = now
        self.accounts = Dictionary(accounts.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The account of `userID`, which the executor must have given this step.
    public func account(_ userID: String) throws(ProtocolError) -> Account {
        guard let account = accounts[userID] else { throw ProtocolError(.internal, "user \(userID) is not loaded") }
        return account
    }

    /// Both sides of the relationship of `userID` with `contactID`, or `not_found`.
    func relationship(of userID: String, with contactID: String) throws(ProtocolError) -> (mine: ContactRecord,
                                                                                            theirs: ContactRecord) {
        guard let mine = accounts[userID]?.contacts[contactID],
              let theirs = accounts[contactID]?.contacts[userID] else { throw .notFound("no such contact") }
        return (mine, theirs)
    }

    /// What `ownerID` sees of `contactID` (§4), derived from the contact's document in this step.
    public func view(of contactID: String, for ownerID: String) -> Contact? {
        guard let record = accounts[ownerID]?.contacts[contactID], let contact = accounts[contactID] else { return nil }
        return record.view(showing: ContactMirror(of: contact.user))
    }

    // MARK: - Building blocks: each changes an account, records the change and its events.

    /// Stores the user's new document, tells their devices (`user.updated`) and every contact in
    /// this step whose view of them changed (`contact.updated`), so no rule can change a document
    /// and forget the views made of it. Contacts outside the step cannot see the change (the
    /// executor loads every contact who can).
    mutating func replaceUser(_ updated: User) {
        guard let before = accounts[updated.id]?.user else { return }
        accounts[updated.id]?.user = updated
        effects.append(.store(.updateUser(updated)))
        effects.append(.event(userID: updated.id, name: EventName.userUpdated, data: .user(updated)))
        let (was, now) = (ContactMirror(of: before), ContactMirror(of: updated))
        guard was != now, let contactIDs = accounts[updated.id]?.contacts.keys.sorted() else { return }
        for contactID in contactIDs {
            guard let record = accounts[contactID]?.contacts[updated.id] else { continue }
            let shown = record.view(showing: now)
            if shown != record.view(showing: was) {
                effects.append(.event(userID: contactID, name: EventName.contactUpdated, data: .contact(shown)))
            }
        }
    }

    /// Stores one side of a relationship; `contact.updated` to its holder's devices.
    mutating func save(_ record: ContactRecord) {
        accounts[record.userID]?.contacts[record.contactID] = record
        effects.append(.store(.upsertContact(record)))
        if let shown = view(of: record.contactID, for: record.userID) {
            effects.append(.event(userID: record.userID, name: EventName.contactUpdated, data: .contact(shown)))
        }
    }

    /// Stores both sides of a relationship, the user's first; the contact's is derived from it.
    mutating func saveBothSides(_ mine: ContactRecord) {
        save(mine)
        save(mine.mirrored)
    }

    /// Deletes one side of a relationship; `contact.removed` to its holder's devices.
    mutating func drop(_ contactID: String, of userID: String) {
        accounts[userID]?.contacts[contactID] = nil
        effects.append(.store(.deleteContact(userID: userID, contactID: contactID)))
        effects.append(.event(userID: userID, name: EventName.contactRemoved, data: ["contactId": .string(contactID)]))
    }

    /// A change to what the user has beyond their account (their notifications), stored with the
    /// event that tells their devices.
    mutating func record(_ change: StoreChange, telling userID: String, _ name: String, _ data: EventData) {
        effects.append(.store(change))
        effects.append(.event(userID: userID, name: name, data: data))
    }

    /// A notification for `userID` about `contactID`, named and with the role as `userID` sees
    /// them now (§5).
    mutating func notify(_ userID: String, _ type: NotificationType, _ message: String, about contactID: String,
                         alert: AlertInfo? = nil, pingID: String? = nil) {
        let name = accounts[contactID]?.user.name ?? ""
        let role = accounts[userID]?.contacts[contactID]?.role ?? ContactRole.none
        let notification = Notification(
            id: Credentials.newID(prefix: "n"), type: type, title: type.title, message: message, timestamp: now,
            isRead: false, relatedContactID: contactID, relatedAlertID: alert?.id, relatedPingID: pingID,
            contactData: ContactData(id: contactID, name: name, role: role, action: type.action), alertData: alert)
        effects.append(.notification(userID: userID, notification))
    }

    /// One notification about `userID` to each of their responders in this step.
    mutating func notifyResponders(of userID: String, _ type: NotificationType, _ message: String,
                                   alert: AlertInfo? = nil) {
        guard let responders = accounts[userID]?.responderIDs else { return }
        for responderID in responders.sorted() where accounts[responderID] != nil {
            notify(responderID, type, message, about: userID, alert: alert)
        }
    }
}
