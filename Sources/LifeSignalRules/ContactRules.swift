import LifeSignalProtocol

/// `contacts.add`, `contacts.remove` and `contacts.setRoles` (§5): both sides change together.
public enum ContactRules {
    /// `userID` adds `otherID`, the current owner of `qrCode`, with the roles `otherID` has for them.
    public static func add(_ otherID: String, by userID: String, qrCode: String, isResponder: Bool, isDependent: Bool,
                    maxContacts: Int, in step: inout Step) throws(ProtocolError) -> Reply {
        let me = try step.account(userID)
        // The code may have been rotated since it was looked up: only the current one works.
        guard let other = step.accounts[otherID], other.user.qrCode == qrCode else {
            throw QRCodeRules.unknown
        }
        guard otherID != userID else { throw QRCodeRules.own }
        guard me.contacts[otherID] == nil else { throw ProtocolError(.conflict, "already a contact") }
        try ensureRoom(for: me, maxContacts: maxContacts, whose: "you already have")
        try ensureRoom(for: other, maxContacts: maxContacts, whose: "that user already has")
        let mine = ContactRecord(userID: userID, contactID: otherID, isResponder: isResponder,
                                 isDependent: isDependent, addedAt: step.now)
        step.save(mine)
        step.notify(userID, .added, "You added \(other.user.name).", about: otherID)
        step.save(mine.mirrored)
        step.notify(otherID, .added, "\(me.user.name) added you.", about: userID)
        return .contact(try step.savedView(of: otherID, for: userID))
    }

    /// At most `maxContacts` contacts per user (§10; 0: no limit), on both sides of a new one: a
    /// profile change, a check-in or an alert involves every contact, so their number is what
    /// such a request costs.
    public static func ensureRoom(for account: Account, maxContacts: Int, whose: String) throws(ProtocolError) {
        guard maxContacts > 0, account.contacts.count >= maxContacts else { return }
        throw .limitExceeded("\(whose) \(maxContacts) contacts")
    }

    /// Both sides and any pings between them go; both users are told.
    public static func remove(_ contactID: String, by userID: String, in step: inout Step) throws(ProtocolError)
        -> Reply
    {
        _ = try step.relationship(of: userID, with: contactID)
        let (myName, theirName) = (try step.loadedUser(userID).name, try step.loadedUser(contactID).name)
        step.drop(contactID, of: userID)
        step.notify(userID, .removed, "You removed \(theirName).", about: contactID)
        step.drop(userID, of: contactID)
        step.notify(contactID, .removed, "\(myName) removed you.", about: userID)
        return .empty
    }

    /// The roles `contactID` has for `userID`; the mirrored roles change with them, and a ping
    /// whose sender no longer watches over its recipient is withdrawn.
    public static func setRoles(of contactID: String, by userID: String, isResponder: Bool, isDependent: Bool,
                         in step: inout Step) throws(ProtocolError) -> Reply {
        var mine = try step.relationship(of: userID, with: contactID).mine
        guard mine.isResponder != isResponder || mine.isDependent != isDependent else {
            return .contact(try step.savedView(of: contactID, for: userID))
        }
        mine.isResponder = isResponder
        mine.isDependent = isDependent
        // A ping goes only from a responder to their dependent, either way.
        if !mine.isDependent { mine.outgoingPing = nil }
        if !mine.isResponder { mine.incomingPing = nil }
        step.saveBothSides(mine)
        let (phrase, myName, theirName) = (mine.role.phrase, try step.loadedUser(userID).name,
                                           try step.loadedUser(contactID).name)
        step.notify(userID, .role, "You changed \(theirName)'s role to \(phrase).", about: contactID)
        step.notify(contactID, .role, "\(myName) changed your role to \(phrase).", about: userID)
        return .contact(try step.savedView(of: contactID, for: userID))
    }
}
