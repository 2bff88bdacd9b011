import LifeSignalProtocol
import LifeSignalRules

/// The embedded executor of the rules (ARCHITECTURE.md, "Rules are plain functions"): it feeds a
/// `Step` the accounts of the loaded users a request touches, and turns the step's effects into the
/// request's `Mutation`.
extension UserSession {
    typealias StepRules = @Sendable (inout Step) throws(ProtocolError) -> JSONObject

    /// Runs `rules` for `request` once this user and `others` are loaded; the connection's later
    /// requests wait until it has run.
    func run(_ request: Request, from connection: ClientConnection, involving others: Set<String> = [],
             _ rules: @escaping StepRules) {
        perform(request, from: connection, loading: others) { (session, mutation) throws(ProtocolError) in
            try session.step(involving: others, &mutation, rules)
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
        var sessions = [userID: self]
        for id in others { if let other = session(of: id) { sessions[id] = other } }
        var step = Step(now: mutation.now, accounts: sessions.values.map { $0.onLoop { $0.lendAccount() } },
                        ids: RandomIDs())
        let result: Result
        do throws(ProtocolError) {
            result = try step.run(rules)
        } catch {
            Self.giveBack(step.takeAccounts(), to: sessions)
            throw error
        }
        Self.giveBack(step.takeAccounts(), to: sessions)
        var usersBefore = step.usersBefore
        for effect in step.effects {
            switch effect {
            case .store(let ruleChange):
                let change = StoreChange(ruleChange)
                mutation.changes.append(change)
                Self.followUp(change, usersBefore: &usersBefore, in: sessions)
            case .event(let userID, let name, let data):
                sessions[userID]?.onLoop { $0.emit(name, data, into: &mutation) }
            case .notification(let userID, let notification):
                sessions[userID]?.onLoop { $0.store(notification, into: &mutation) }
            }
        }
        return result
    }

    /// The account, for a step to change in place; the session holds none until it is given back.
    private func lendAccount() -> Account {
        defer { account = .lent }
        return account
    }

    private static func giveBack(_ accounts: consuming [String: Account], to sessions: [String: UserSession]) {
        for (id, session) in sessions {
            if let account = accounts.removeValue(forKey: id) { session.onLoop { $0.account = account } }
        }
    }

    /// What follows in memory from a change the step made to an account: the deadline scheduler
    /// and the fallback copies other sessions keep of a document. A user's document is followed
    /// up once, at its first change, against what the step made of it in the end (`usersBefore`
    /// holds the documents not yet followed up).
    private static func followUp(_ change: StoreChange, usersBefore: inout [String: User],
                                 in sessions: [String: UserSession]) {
        switch change {
        case .updateUser(let user):
            guard let before = usersBefore.removeValue(forKey: user.id) else { return }
            sessions[user.id]?.onLoop { $0.followUserChange(from: before) }
        case .upsertContact(let record):
            guard let mirror = sessions[record.contactID]?.onLoop({ ContactMirror(of: $0.user) }) else { return }
            sessions[record.userID]?.onLoop { $0.lastKnown[record.contactID] = mirror }
        case .deleteContact(let userID, let contactID):
            sessions[userID]?.onLoop { $0.lastKnown[contactID] = nil }
        default:
            break
        }
    }

    /// The user's document changed from `before` to the one their account now holds: keeps the
    /// deadline scheduler and every loaded contact's fallback copy of it in step.
    private func followUserChange(from before: User) {
        let updated = user
        if updated.checkInDeadline != before.checkInDeadline || updated.isNonResponsive != before.isNonResponsive {
            broker.onLoop { $0.deadlineChanged(for: updated) }
        }
        let mirror = ContactMirror(of: updated)
        guard mirror != ContactMirror(of: before) else { return }
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
