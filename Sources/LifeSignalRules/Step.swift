import LifeSignalProtocol

/// One request's run of the rules over the accounts it touches: the rules read and change
/// `accounts` and record their effects. No socket, no actor, no store: a plain value.
///
/// The accounts are changed in place, so an executor can move them in and out without a copy;
/// `run` puts back what the rules changed when they throw.
public struct Step: Sendable {
    public let now: Int64
    /// Where new ids come from.
    public let ids: any IDSource
    public private(set) var accounts: [String: Account]
    public private(set) var effects: [RuleEffect] = []
    /// Each user's document before this step first replaced it.
    public private(set) var usersBefore: [String: User] = [:]
    /// What each change to a side of a relationship replaced, in order: undone in reverse.
    private var contactsBefore: [(userID: String, contactID: String, record: ContactRecord?)] = []

    /// `accounts`: of distinct users (the first of any repeated one is kept). An array, not any
    /// sequence: a generic initializer is not specialized in the executors' modules, and this
    /// runs once a request.
    public init(now: Int64, accounts: [Account], ids: any IDSource) {
        self.now = now
        self.ids = ids
        var byID: [String: Account] = [:]
        byID.reserveCapacity(accounts.count)
        // Backwards, so the first of a repeated id is the one left; one hash an account.
        for account in accounts.reversed() { byID[account.id] = account }
        self.accounts = byID
        // A ping records five effects; grown one by one, the array is allocated four times.
        effects.reserveCapacity(8)
    }

    /// Runs `rules` over this step. If they throw, the accounts are as they were before and no
    /// effect is recorded: a refused request has changed nothing.
    public mutating func run<Result>(_ rules: (inout Step) throws(ProtocolError) -> Result) throws(ProtocolError)
        -> Result
    {
        do {
            return try rules(&self)
        } catch {
            for (userID, contactID, record) in contactsBefore.reversed() {
                accounts[userID]?.contacts[contactID] = record
            }
            for (userID, user) in usersBefore { accounts[userID]?.user = user }
            (effects, usersBefore, contactsBefore) = ([], [:], [])
            throw error
        }
    }

    /// Hands the accounts over (to the executor that lent them), leaving none here.
    public mutating func takeAccounts() -> [String: Account] {
        defer { accounts = [:] }
        return accounts
    }

    /// A new id for something this step makes.
    func newID(prefix: String) -> String { ids.newID(prefix: prefix, nowMs: now) }

    /// The account of `userID`, which the executor must have given this step.
    public func account(_ userID: String) throws(ProtocolError) -> Account {
        guard let account = accounts[userID] else { throw ProtocolError(.internal, "user \(userID) is not loaded") }
        return account
    }

    /// The side of `userID` of their relationship with `contactID`.
    func record(of userID: String, with contactID: String) -> ContactRecord? { accounts[userID]?.contacts[contactID] }

    /// The document of `userID`, whom the executor must have given this step.
    public func loadedUser(_ userID: String) throws(ProtocolError) -> User {
        guard let user = user(userID) else { throw ProtocolError(.internal, "user \(userID) is not loaded") }
        return user
    }

    /// Both sides of the relationship of `userID` with `contactID`, or `not_found`.
    func relationship(of userID: String, with contactID: String) throws(ProtocolError) -> (mine: ContactRecord,
                                                                                            theirs: ContactRecord) {
        guard let mine = record(of: userID, with: contactID),
              let theirs = record(of: contactID, with: userID) else { throw .notFound("no such contact") }
        return (mine, theirs)
    }

    /// What `ownerID` sees of `contactID` (§4), derived from the contact's document in this step.
    public func view(of contactID: String, for ownerID: String) -> Contact? {
        guard let record = record(of: ownerID, with: contactID) else { return nil }
        return view(of: record)
    }

    /// What the holder of `record` sees of its contact, if the step holds the contact's account.
    func view(of record: ContactRecord) -> Contact? {
        guard let contact = accounts[record.contactID]?.user else { return nil }
        return record.view(showing: ContactMirror(of: contact))
    }

    /// The document of `userID` if the step holds their account.
    public func user(_ userID: String) -> User? { accounts[userID]?.user }

    /// The view of a relationship the step holds: missing only if a rule is wrong.
    func savedView(of contactID: String, for ownerID: String) throws(ProtocolError) -> Contact {
        guard let view = view(of: contactID, for: ownerID) else {
            throw .internal("no view of \(contactID) for \(ownerID) in the step")
        }
        return view
    }

    // MARK: - Building blocks: each changes an account, records the change and its events.

    /// Stores the user's new document, tells their devices (`user.updated`) and every contact in
    /// this step whose view of them changed (`contact.updated`), so no rule can change a document
    /// and forget the views made of it. Contacts outside the step cannot see the change (the
    /// executor loads every contact who can).
    mutating func replaceUser(_ updated: User) {
        guard let before = user(updated.id) else { return }
        if usersBefore[updated.id] == nil { usersBefore[updated.id] = before }
        accounts[updated.id]?.user = updated
        effects.append(.store(.updateUser(updated)))
        effects.append(.event(userID: updated.id, .userUpdated(updated)))
        let (was, now) = (ContactMirror(of: before), ContactMirror(of: updated))
        guard was != now, let contactIDs = accounts[updated.id]?.contacts.keys.sorted() else { return }
        for contactID in contactIDs {
            guard let record = record(of: contactID, with: updated.id) else { continue }
            let shown = record.view(showing: now)
            if shown != record.view(showing: was) {
                effects.append(.event(userID: contactID, .contactUpdated(shown)))
            }
        }
    }

    /// Stores one side of a relationship; `contact.updated` to its holder's devices.
    mutating func save(_ record: ContactRecord) {
        var replaced: ContactRecord?
        let holder = accounts.index(forKey: record.userID)
        if let holder { replaced = accounts.values[holder].contacts.updateValue(record, forKey: record.contactID) }
        remember(record.userID, record.contactID, replaced)
        effects.append(.store(.upsertContact(record)))
        // The view of the record just saved, not looked up again.
        if holder != nil, let shown = view(of: record) {
            effects.append(.event(userID: record.userID, .contactUpdated(shown)))
        }
    }

    /// Stores both sides of a relationship, the user's first; the contact's is derived from it.
    mutating func saveBothSides(_ mine: ContactRecord) {
        save(mine)
        save(mine.mirrored)
    }

    private mutating func remember(_ userID: String, _ contactID: String, _ before: ContactRecord?) {
        if contactsBefore.isEmpty { contactsBefore.reserveCapacity(4) }  // both sides, once or twice
        contactsBefore.append((userID, contactID, before))
    }

    /// Deletes one side of a relationship; `contact.removed` to its holder's devices.
    mutating func drop(_ contactID: String, of userID: String) {
        let before = accounts[userID]?.contacts.removeValue(forKey: contactID)
        remember(userID, contactID, before)
        effects.append(.store(.deleteContact(userID: userID, contactID: contactID)))
        effects.append(.event(userID: userID, .contactRemoved(contactID: contactID)))
    }

    /// The user's account leaves the step and the store, their sides of relationships with it.
    /// Their devices are told nothing: they are closed (`account_deleted`).
    mutating func erase(_ userID: String) {
        guard let account = accounts[userID] else { return }
        for contactID in account.contacts.keys {
            remember(userID, contactID, accounts[userID]?.contacts.removeValue(forKey: contactID))
        }
        effects.append(.store(.eraseUser(userID: userID)))
    }

    /// A change to what the user has beyond their account and its events (a device's credential).
    mutating func store(_ change: RuleChange) {
        effects.append(.store(change))
    }

    /// A change to what the user has beyond their account (their notifications), stored with the
    /// event that tells their devices.
    mutating func record(_ change: RuleChange, telling userID: String, _ event: Event) {
        effects.append(.store(change))
        effects.append(.event(userID: userID, event))
    }

    /// A notification for `userID` about `contactID`, named and with the role as `userID` sees
    /// them now (§5).
    mutating func notify(_ userID: String, _ type: NotificationType, _ message: String, about contactID: String,
                         alert: AlertInfo? = nil, pingID: String? = nil) {
        let name = user(contactID)?.name ?? ""
        let role = record(of: userID, with: contactID)?.role ?? ContactRole.none
        let notification = Notification(
            id: newID(prefix: "n"), type: type, title: type.title, message: message, timestamp: now,
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
