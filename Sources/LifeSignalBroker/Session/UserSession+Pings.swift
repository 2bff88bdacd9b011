import LifeSignalProtocol

extension UserSession {
    /// `ping.send`: a responder pings one of their dependents (§5).
    func sendPing(_ request: Request, from connection: ClientConnection) {
        if let contactID = try? request.string("contactId"), let link = contacts[contactID], !link.record.isDependent {
            // Refused before loading anyone: the rule needs only this user's side.
            return connection.respond(error: Self.notYourDependent, rid: request.rid)
        }
        withContact(request, from: connection) { (session, contactID, mutation) throws(ProtocolError) in
            guard let other = session.session(of: contactID), var mine = session.contacts[contactID],
                  var theirs = other.assumeIsolated({ $0.contacts[session.userID] }) else {
                throw .notFound("no such contact")
            }
            guard mine.record.isDependent else { throw Self.notYourDependent }
            let ping = PendingPing(id: Credentials.newID(prefix: "p"), sentAt: mutation.now)
            mine.record.outgoingPing = ping
            theirs.record.incomingPing = ping
            let (userID, myName) = (session.userID, session.user.name)
            session.saveLink(mine, into: &mutation)
            other.assumeIsolated { other in
                other.saveLink(theirs, into: &mutation)
                other.notify(.ping, "\(myName) pinged you.", about: userID, named: myName, role: theirs.role,
                             pingID: ping.id, into: &mutation)
            }
            return ["pingId": .string(ping.id)]
        }
    }

    /// `ping.respond`: the dependent answers a pending ping; the pinger is told (§5).
    func respondToPing(_ request: Request, from connection: ClientConnection) {
        withContact(request, from: connection) { (session, contactID, mutation) throws(ProtocolError) in
            guard let other = session.session(of: contactID), var mine = session.contacts[contactID],
                  let ping = mine.record.incomingPing,
                  var theirs = other.assumeIsolated({ $0.contacts[session.userID] }) else {
                throw .notFound("no pending ping from that contact")
            }
            mine.record.incomingPing = nil
            theirs.record.outgoingPing = nil
            let (userID, myName) = (session.userID, session.user.name)
            session.saveLink(mine, into: &mutation)
            other.assumeIsolated { other in
                other.saveLink(theirs, into: &mutation)
                other.notify(.pingResponse, "\(myName) responded to your ping.", about: userID, named: myName,
                             role: theirs.role, pingID: ping.id, into: &mutation)
            }
            return [:]
        }
    }

    /// `ping.clear`: the pinger withdraws their pending ping; nobody is notified (§5).
    func clearPing(_ request: Request, from connection: ClientConnection) {
        withContact(request, from: connection) { (session, contactID, mutation) throws(ProtocolError) in
            guard let other = session.session(of: contactID), var mine = session.contacts[contactID],
                  mine.record.outgoingPing != nil,
                  var theirs = other.assumeIsolated({ $0.contacts[session.userID] }) else {
                throw .notFound("no pending ping to that contact")
            }
            mine.record.outgoingPing = nil
            theirs.record.incomingPing = nil
            session.saveLink(mine, into: &mutation)
            other.assumeIsolated { $0.saveLink(theirs, into: &mutation) }
            return [:]
        }
    }

    private static var notYourDependent: ProtocolError { ProtocolError(.forbidden, "that contact is not your dependent") }
}
