import LifeSignalProtocol

extension UserSession {
    /// `ping.send`: a responder pings one of their dependents (§5).
    func sendPing(_ request: Request, from connection: ClientConnection) {
        if let contactID = try? request.string("contactId"), let link = contacts[contactID], !link.record.isDependent {
            // Refused before loading anyone: the rule needs only this user's side.
            return connection.respond(error: Self.notYourDependent, rid: request.rid)
        }
        withContact(request, from: connection) { (session, contactID, mutation) throws(ProtocolError) in
            var pair = try session.bothSides(of: contactID)
            guard pair.mine.record.isDependent else { throw Self.notYourDependent }
            let ping = PendingPing(id: Credentials.newID(prefix: "p"), sentAt: mutation.now)
            pair.mine.record.outgoingPing = ping
            pair.theirs.record.incomingPing = ping
            session.save(pair, into: &mutation)
            let (userID, myName, role) = (session.userID, session.user.name, pair.theirs.role)
            pair.other.assumeIsolated {
                $0.notify(.ping, "\(myName) pinged you.", about: userID, named: myName, role: role, pingID: ping.id,
                          into: &mutation)
            }
            return ["pingId": .string(ping.id)]
        }
    }

    /// `ping.respond`: the dependent answers a pending ping; the pinger is told (§5).
    func respondToPing(_ request: Request, from connection: ClientConnection) {
        withContact(request, from: connection) { (session, contactID, mutation) throws(ProtocolError) in
            var pair = try session.bothSides(of: contactID)
            guard let ping = pair.mine.record.incomingPing else { throw .notFound("no pending ping from that contact") }
            pair.mine.record.incomingPing = nil
            pair.theirs.record.outgoingPing = nil
            session.save(pair, into: &mutation)
            let (userID, myName, role) = (session.userID, session.user.name, pair.theirs.role)
            pair.other.assumeIsolated {
                $0.notify(.pingResponse, "\(myName) responded to your ping.", about: userID, named: myName, role: role,
                          pingID: ping.id, into: &mutation)
            }
            return [:]
        }
    }

    /// `ping.clear`: the pinger withdraws their pending ping; nobody is notified (§5).
    func clearPing(_ request: Request, from connection: ClientConnection) {
        withContact(request, from: connection) { (session, contactID, mutation) throws(ProtocolError) in
            var pair = try session.bothSides(of: contactID)
            guard pair.mine.record.outgoingPing != nil else { throw .notFound("no pending ping to that contact") }
            pair.mine.record.outgoingPing = nil
            pair.theirs.record.incomingPing = nil
            session.save(pair, into: &mutation)
            return [:]
        }
    }

    private static var notYourDependent: ProtocolError { ProtocolError(.forbidden, "that contact is not your dependent") }
}
