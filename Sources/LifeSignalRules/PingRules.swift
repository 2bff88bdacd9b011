import LifeSignalProtocol

/// `ping.send`, `ping.respond` and `ping.clear` (§5): a responder pings a dependent, who answers.
public enum PingRules {
    public static func send(to contactID: String, by userID: String, in step: inout Step) throws(ProtocolError)
        -> Reply
    {
        var mine = try step.relationship(of: userID, with: contactID).mine
        guard mine.isDependent else { throw notYourDependent }
        let ping = PendingPing(id: step.newID(prefix: "p"), sentAt: step.now)
        mine.outgoingPing = ping
        step.saveBothSides(mine)
        let myName = try step.loadedUser(userID).name
        step.notify(contactID, .ping, "\(myName) pinged you.", about: userID, pingID: ping.id)
        return .ping(id: ping.id)
    }

    public static func respond(to contactID: String, by userID: String, in step: inout Step) throws(ProtocolError)
        -> Reply
    {
        var mine = try step.relationship(of: userID, with: contactID).mine
        guard let ping = mine.incomingPing else { throw .notFound("no pending ping from that contact") }
        mine.incomingPing = nil
        step.saveBothSides(mine)
        let myName = try step.loadedUser(userID).name
        step.notify(contactID, .pingResponse, "\(myName) responded to your ping.", about: userID, pingID: ping.id)
        return .empty
    }

    /// The pinger withdraws their pending ping; nobody is notified.
    public static func clear(to contactID: String, by userID: String, in step: inout Step) throws(ProtocolError)
        -> Reply
    {
        var mine = try step.relationship(of: userID, with: contactID).mine
        guard mine.outgoingPing != nil else { throw .notFound("no pending ping to that contact") }
        mine.outgoingPing = nil
        step.saveBothSides(mine)
        return .empty
    }

    public static var notYourDependent: ProtocolError { ProtocolError(.forbidden, "that contact is not your dependent") }
}
