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
    func step<Result: Sendable>(involving others: Set<String>, _ mutation: inout Mutation,
                                _ rules: @Sendable (inout Step) throws(ProtocolError) -> Result)
        throws(ProtocolError) -> Result
    {
        var loaded: [String: UserSession] = [:]
        for id in others where id != userID { if let other = session(of: id) { loaded[id] = other } }
        return try step(with: loaded, &mutation, rules)
    }

    /// `step(involving:)` over the sessions of the others, already looked up. Each of them is
    /// entered once (`takePart`): to lend its account, and, once the rules have run inside, to
    /// take it back and carry out its user's part of the outcome. Past `maxNestedSessions` others
    /// (an alert to many responders), each is entered twice instead, to lend and to settle, so
    /// that the loop's stack does not grow with a user's contacts.
    func step<Result: Sendable>(with others: [String: UserSession], _ mutation: inout Mutation,
                                _ rules: @Sendable (inout Step) throws(ProtocolError) -> Result)
        throws(ProtocolError) -> Result
    {
        var sessions = others
        sessions[userID] = nil
        var lent: [Account] = []
        var outcome = StepOutcome<Result>()
        if sessions.count <= Self.maxNestedSessions {
            takePart(with: Array(sessions.values)[...], lent: &lent, outcome: &outcome, &mutation, rules)
        } else {
            lent.append(lendAccount())
            for session in sessions.values { lent.append(session.onLoop { $0.lendAccount() }) }
            Self.runRules(lent: &lent, outcome: &outcome, &mutation, rules)
            // Each session is handed its own part, not the whole step to scan: an alert's effects
            // grow with its responders, and so would every scan.
            var parts: [String: [RuleEffect]] = [:]
            for effect in outcome.effects {
                if let userID = effect.settledBy { parts[userID, default: []].append(effect) }
            }
            for session in sessions.values { session.onLoop { $0.settle(&outcome, parts[$0.userID] ?? [], &mutation) } }
            settle(&outcome, parts[userID] ?? [], &mutation)
        }
        if let refusal = outcome.refusal { throw refusal }
        guard let result = outcome.result else { throw ProtocolError(.internal, "the rules ran without a result") }
        return result
    }

    /// How many other sessions a step enters one inside another at most.
    static let maxNestedSessions = 16

    /// What a step left for the sessions that lent it their accounts.
    struct StepOutcome<Result: Sendable>: Sendable {
        var result: Result?
        var refusal: ProtocolError?
        var accounts: [String: Account] = [:]
        var effects: [RuleEffect] = []
        var usersBefore: [String: User] = [:]
    }

    /// Lends this user's account, then lends those of `others` in turn, each from inside the
    /// previous one's entry, and runs `rules` with all of them inside the last; on the way out
    /// each session takes its account back and carries out its own part. The sessions share the
    /// loop's thread, so entering one inside another is a plain call.
    private func takePart<Result: Sendable>(
        with others: ArraySlice<UserSession>, lent: inout [Account], outcome: inout StepOutcome<Result>,
        _ mutation: inout Mutation, _ rules: @Sendable (inout Step) throws(ProtocolError) -> Result
    ) {
        lent.append(lendAccount())
        if let next = others.first {
            next.onLoop { $0.takePart(with: others.dropFirst(), lent: &lent, outcome: &outcome, &mutation, rules) }
        } else {
            Self.runRules(lent: &lent, outcome: &outcome, &mutation, rules)
        }
        let effects = outcome.effects
        settle(&outcome, effects, &mutation)
    }

    /// Runs `rules` over the `lent` accounts, which move into the step and on into `outcome`
    /// with its effects; the store's changes go into `mutation` in the order the rules made them,
    /// before any user's events.
    private static func runRules<Result: Sendable>(
        lent: inout [Account], outcome: inout StepOutcome<Result>, _ mutation: inout Mutation,
        _ rules: @Sendable (inout Step) throws(ProtocolError) -> Result
    ) {
        var step = Step(now: mutation.now, accounts: take(&lent), ids: RandomIDs())
        do throws(ProtocolError) {
            outcome.result = try step.run(rules)
        } catch {
            outcome.refusal = error
        }
        (outcome.accounts, outcome.effects, outcome.usersBefore) = (step.takeAccounts(), step.effects, step.usersBefore)
        for case .store(let change) in outcome.effects { mutation.changes.append(StoreChange(change)) }
    }

    /// Takes this user's account back from `outcome` and carries out what the step did to them,
    /// as `effects` (the step's, or this user's part of them) say: their events emitted and
    /// notifications stored, in order, and what follows in memory from a change to their account
    /// (the deadline scheduler, a removed contact's fallback copy).
    private func settle<Result: Sendable>(_ outcome: inout StepOutcome<Result>, _ effects: [RuleEffect],
                                          _ mutation: inout Mutation) {
        if let own = outcome.accounts.removeValue(forKey: userID) { account = own }
        var userChanged = false
        for effect in effects {
            switch effect {
            case .event(userID, let name, let data): emit(name, data, into: &mutation)
            case .notification(userID, let notification): store(notification, into: &mutation)
            case .store(.updateUser(let updated)) where updated.id == userID: userChanged = true
            case .store(.deleteContact(userID, let contactID)): lastKnown[contactID] = nil
            case .store(.eraseUser(userID)): beginErasure()
            default: break  // another user's part, or a change with nothing to follow in memory
            }
        }
        // Followed up once, against what the step made of the document in the end.
        if userChanged, let before = outcome.usersBefore[userID] { followUserChange(from: before) }
    }

    /// The accounts, moved out: the step is then their only holder and changes them in place.
    private static func take(_ accounts: inout [Account]) -> [Account] {
        defer { accounts = [] }
        return accounts
    }

    /// The account, for a step to change in place; the session holds none until it is given back.
    private func lendAccount() -> Account {
        defer { account = .lent }
        return account
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
        let (frame, pushes) = eventLog.appendNotification(
            notification, of: userID, retention: configuration.eventRetention, devices: devices.values,
            isOnline: { online[$0] != nil }, preferences: user.preferences, to: &mutation.changes)
        mutation.pushes += pushes
        queueDelivery(of: frame, into: &mutation)
        pruneNotificationHistoryIfDue(into: &mutation)
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

private extension RuleEffect {
    /// The user whose session carries this effect out in memory (`settle`); nil for a change
    /// that only the store takes.
    var settledBy: String? {
        switch self {
        case .event(let userID, _, _), .notification(let userID, _): userID
        case .store(.updateUser(let user)): user.id
        case .store(.deleteContact(let userID, _)), .store(.eraseUser(let userID)): userID
        case .store: nil
        }
    }
}
