import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

/// The embedded executor of the rules (ARCHITECTURE.md, "Rules are plain functions"): it feeds a
/// `Step` the accounts of the loaded users a request touches, and turns the step's effects into the
/// request's `Mutation`.
extension UserSession {
    typealias StepRules = @Sendable (inout Step) throws(ProtocolError) -> Reply

    /// Runs `rules` for `request` once this user and `others` are loaded; the connection's later
    /// requests wait until it has run.
    func run(_ request: Request, from connection: ClientConnection, involving others: Set<String> = [],
             _ rules: @escaping StepRules) {
        perform(request, from: connection, loading: others) { (session, loaded, mutation) throws(ProtocolError) in
            try session.step(with: loaded, &mutation, rules)
        }
    }

    /// One step of the rules over this user and the loaded ones of `others`, applied to memory
    /// and recorded in `mutation`. A rule that throws has changed nothing. Memory takes exactly
    /// the changes the store is given, in their order, so the two cannot tell different stories.
    ///
    /// The accounts move into the step and back: the rules change them in place, where a copy
    /// would have copied each changed user's whole contacts table on its first write.
    func step<Result>(involving others: Set<String>, _ mutation: inout Mutation,
                      _ rules: (inout Step) throws(ProtocolError) -> Result) throws(ProtocolError) -> Result {
        var loaded: [String: UserSession] = [:]
        for id in others where id != userID { if let other = session(of: id) { loaded[id] = other } }
        return try step(with: loaded, &mutation, rules)
    }

    /// `step(involving:)` over the sessions of the others, already looked up.
    func step<Result>(with others: [String: UserSession], _ mutation: inout Mutation,
                      _ rules: (inout Step) throws(ProtocolError) -> Result) throws(ProtocolError) -> Result {
        // This session is the one running: its own account, events and notifications need no hop.
        var sessions = others
        sessions[userID] = nil
        var step = Step(now: mutation.now, accounts: [lendAccount()] + sessions.values.map { $0.onLoop { $0.lendAccount() } },
                        ids: RandomIDs())
        let result: Result
        do throws(ProtocolError) {
            result = try step.run(rules)
        } catch {
            giveBack(step.takeAccounts(), to: sessions)
            throw error
        }
        giveBack(step.takeAccounts(), to: sessions)
        sessions[userID] = self
        var usersBefore = step.usersBefore
        // Each run of one user's events and notifications is applied in one entry into their session.
        let effects = step.effects
        var run: (userID: String, start: Int)?
        func endRun(at end: Int, _ mutation: inout Mutation) {
            guard let (userID, start) = run else { return }
            run = nil
            if userID == self.userID { return apply(effects[start..<end], into: &mutation) }
            sessions[userID]?.onLoop { $0.apply(effects[start..<end], into: &mutation) }
        }
        for (index, effect) in effects.enumerated() {
            switch effect {
            case .store(let ruleChange):
                endRun(at: index, &mutation)
                let change = StoreChange(ruleChange)
                mutation.changes.append(change)
                Self.followUp(change, usersBefore: &usersBefore, in: sessions)
            case .event(let userID, _, _), .notification(let userID, _):
                if run?.userID != userID {
                    endRun(at: index, &mutation)
                    run = (userID, index)
                }
            }
        }
        endRun(at: effects.endIndex, &mutation)
        return result
    }

    /// This user's events and notifications of a step: each event emitted, each notification stored.
    private func apply(_ effects: ArraySlice<RuleEffect>, into mutation: inout Mutation) {
        for effect in effects {
            switch effect {
            case .event(_, let name, let data): emit(name, data, into: &mutation)
            case .notification(_, let notification): store(notification, into: &mutation)
            case .store: break  // the step's, applied by `step`
            }
        }
    }

    /// The account, for a step to change in place; the session holds none until it is given back.
    private func lendAccount() -> Account {
        defer { account = .lent }
        return account
    }

    private func giveBack(_ accounts: consuming [String: Account], to others: [String: UserSession]) {
        if let own = accounts.removeValue(forKey: userID) { account = own }
        for (id, session) in others {
            if let account = accounts.removeValue(forKey: id) { session.onLoop { $0.account = account } }
        }
    }

    /// What follows in memory from a change the step made to an account: the deadline scheduler,
    /// and a removed contact's fallback copy. A user's document is followed up once, at its first
    /// change, against what the step made of it in the end (`usersBefore` holds the documents not
    /// yet followed up).
    private static func followUp(_ change: StoreChange, usersBefore: inout [String: User],
                                 in sessions: [String: UserSession]) {
        switch change {
        case .updateUser(let user):
            guard let before = usersBefore.removeValue(forKey: user.id) else { return }
            sessions[user.id]?.onLoop { $0.followUserChange(from: before) }
        case .deleteContact(let userID, let contactID):
            sessions[userID]?.onLoop { $0.lastKnown[contactID] = nil }
        default:
            break
        }
    }

    /// The user's document changed from `before` to the one their account now holds: keeps the
    /// deadline scheduler in step.
    private func followUserChange(from before: User) {
        let updated = user
        if updated.checkInDeadline != before.checkInDeadline || updated.isNonResponsive != before.isNonResponsive {
            broker.onLoop { $0.deadlineChanged(for: updated) }
        }
    }

    /// This session leaves memory: every loaded contact keeps the document it ends with, which
    /// their views show until it is loaded again (while it was loaded they read the live one).
    func leaveMirrorWithContacts() {
        let mirror = ContactMirror(of: user)
        for contactID in contacts.keys { session(of: contactID)?.onLoop { $0.lastKnown[userID] = mirror } }
    }

    /// Stores a notification for this user, announces it to their devices and pushes it to
    /// their offline ones (§5, §7).
    func store(_ notification: Notification, into mutation: inout Mutation) {
        notifications.add(notification)
        mutation.changes.append(.insertNotification(userID: userID, notification))
        pruneNotificationHistoryIfDue(into: &mutation)
        emit(EventName.notificationAdded, .notification(notification), into: &mutation)
        queuePushes(of: notification, into: &mutation)
    }

    /// What this user sees of a contact (§4), derived from the contact's own document: the live
    /// one while the contact is loaded, else the one the store had.
    func view(of record: ContactRecord) -> Contact {
        record.view(showing: mirror(of: record.contactID))
    }

    private func mirror(of contactID: String) -> ContactMirror {
        if let live = session(of: contactID)?.onLoop({ ContactMirror(of: $0.user) }) { return live }
        return lastKnown[contactID] ?? ContactMirror(name: "", lastCheckInAt: nil, checkInDeadline: nil,
                                                     isNonResponsive: false, alert: nil)
    }

    /// This user's responders: the contacts who watch over them.
    var responderIDs: Set<String> { account.responderIDs }
}

private extension Account {
    /// What a session holds while a step has its account: nothing reads it then (the rules
    /// run on the step, and the account is back before anything else runs on the loop).
    static let lent = Account(user: User(id: "", name: "", qrCode: "", createdAt: 0), contacts: [:])
}
