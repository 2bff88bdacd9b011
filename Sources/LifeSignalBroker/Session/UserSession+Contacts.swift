import LifeSignalProtocol

extension UserSession {
    /// `contacts.add`: the owner of `qrCode` becomes a contact, both sides at once (§5).
    func addContact(_ request: Request, from connection: ClientConnection) {
        guard !refuseIfTooManyFailedAdds(request, from: connection) else { return }
        let qrCode: String
        let isResponder: Bool
        let isDependent: Bool
        do throws(ProtocolError) {
            qrCode = try Validate.id(try request.string("qrCode"), field: "qrCode")
            isResponder = try request.bool("isResponder")
            isDependent = try request.bool("isDependent")
            guard qrCode != user.qrCode else { throw .badRequest("that is your own QR code") }
            try ensureRoomForContact()
        } catch {
            return connection.respond(error: error, rid: request.rid)
        }
        afterQuery(.userIDForQRCode(qrCode), for: request, from: connection) { session, answer in
            guard case .userID(let otherID?) = answer else {
                session.recordFailedAdd()
                return connection.respond(error: .notFound("no user has that QR code"), rid: request.rid)
            }
            session.perform(request, from: connection, loading: [otherID]) { (session, mutation) throws(ProtocolError) in
                try session.link(to: otherID, qrCode: qrCode, isResponder: isResponder, isDependent: isDependent,
                                 &mutation)
            }
        }
    }

    private func link(to otherID: String, qrCode: String, isResponder: Bool, isDependent: Bool,
                      _ mutation: inout Mutation) throws(ProtocolError) -> JSONObject {
        // The code may have been rotated while the user was loading: only the current one works.
        guard let other = session(of: otherID), other.assumeIsolated({ $0.user.qrCode }) == qrCode else {
            throw .notFound("no user has that QR code")
        }
        guard otherID != userID else { throw .badRequest("that is your own QR code") }
        guard contacts[otherID] == nil else { throw ProtocolError(.conflict, "already a contact") }
        try ensureRoomForContact(with: other)
        let mine = ContactLink(
            record: ContactRecord(userID: userID, contactID: otherID, isResponder: isResponder,
                                  isDependent: isDependent, addedAt: mutation.now),
            lastKnown: ContactMirror(of: other.assumeIsolated { $0.user }))
        let theirs = ContactLink(
            record: ContactRecord(userID: otherID, contactID: userID, isResponder: isDependent,
                                  isDependent: isResponder, addedAt: mutation.now),
            lastKnown: ContactMirror(of: user))
        saveLink(mine, into: &mutation)
        let theirName = mirror(of: mine).name
        notify(.added, "You added \(theirName).", about: otherID, named: theirName, role: mine.role,
               into: &mutation)
        let myName = user.name
        other.assumeIsolated { other in
            other.saveLink(theirs, into: &mutation)
            other.notify(.added, "\(myName) added you.", about: userID, named: myName, role: theirs.role,
                         into: &mutation)
        }
        return ["contact": view(of: mine).json]
    }

    /// `contacts.remove`: both sides and any pings between them go (§5).
    func removeContact(_ request: Request, from connection: ClientConnection) {
        withContact(request, from: connection) { (session, contactID, mutation) throws(ProtocolError) in
            guard let other = session.session(of: contactID), let mine = session.contacts[contactID] else {
                throw .notFound("no such contact")
            }
            let myName = session.user.name
            let userID = session.userID
            session.dropLink(to: contactID, into: &mutation)
            let theirName = session.mirror(of: mine).name
            session.notify(.removed, "You removed \(theirName).", about: contactID, named: theirName,
                           role: .none, into: &mutation)
            other.assumeIsolated { other in
                other.dropLink(to: userID, into: &mutation)
                other.notify(.removed, "\(myName) removed you.", about: userID, named: myName, role: .none,
                             into: &mutation)
            }
            return [:]
        }
    }

    /// `contacts.setRoles`: both sides change together; a ping whose sender no longer watches
    /// over its recipient is withdrawn (§5).
    func setContactRoles(_ request: Request, from connection: ClientConnection) {
        let isResponder: Bool
        let isDependent: Bool
        do throws(ProtocolError) {
            isResponder = try request.bool("isResponder")
            isDependent = try request.bool("isDependent")
        } catch {
            return connection.respond(error: error, rid: request.rid)
        }
        withContact(request, from: connection) { (session, contactID, mutation) throws(ProtocolError) in
            try session.setRoles(of: contactID, isResponder: isResponder, isDependent: isDependent, &mutation)
        }
    }

    private func setRoles(of contactID: String, isResponder: Bool, isDependent: Bool,
                          _ mutation: inout Mutation) throws(ProtocolError) -> JSONObject {
        var pair = try bothSides(of: contactID)
        guard pair.mine.record.isResponder != isResponder || pair.mine.record.isDependent != isDependent else {
            return ["contact": view(of: pair.mine).json]
        }
        pair.mine.record.isResponder = isResponder
        pair.mine.record.isDependent = isDependent
        pair.theirs.record.isResponder = isDependent
        pair.theirs.record.isDependent = isResponder
        // A ping goes only from a responder to their dependent.
        if !pair.mine.record.isDependent {
            pair.mine.record.outgoingPing = nil
            pair.theirs.record.incomingPing = nil
        }
        if !pair.theirs.record.isDependent {
            pair.theirs.record.outgoingPing = nil
            pair.mine.record.incomingPing = nil
        }
        save(pair, into: &mutation)
        let (phrase, myName, theirName) = (pair.mine.role.phrase, user.name, mirror(of: pair.mine).name)
        notify(.role, "You changed \(theirName)'s role to \(phrase).", about: contactID, named: theirName,
               role: pair.mine.role, into: &mutation)
        let theirRole = pair.theirs.role
        pair.other.assumeIsolated {
            $0.notify(.role, "\(myName) changed your role to \(phrase).", about: userID, named: myName, role: theirRole,
                      into: &mutation)
        }
        return ["contact": view(of: pair.mine).json]
    }

    /// Every contact as this user sees them, in the order they were added: the order of
    /// `contacts.list` and of a snapshot.
    var contactDocuments: [Contact] {
        contacts.values.sorted {
            ($0.record.addedAt, $0.record.contactID) < ($1.record.addedAt, $1.record.contactID)
        }.map(view(of:))
    }

    /// `contacts.list`.
    var contactList: JSONObject { ["contacts": .array(contactDocuments.map(\.json))] }

    typealias ContactRules = @Sendable (isolated UserSession, String, inout Mutation) throws(ProtocolError)
        -> JSONObject

    /// Runs `rules` for a request naming an existing contact in `contactId`, with that contact loaded.
    func withContact(_ request: Request, from connection: ClientConnection, _ rules: @escaping ContactRules) {
        let contactID: String
        do throws(ProtocolError) {
            contactID = try Validate.id(try request.string("contactId"), field: "contactId")
            guard contacts[contactID] != nil else { throw .notFound("no such contact") }
        } catch {
            return connection.respond(error: error, rid: request.rid)
        }
        perform(request, from: connection, loading: [contactID]) { (session, mutation) throws(ProtocolError) in
            guard session.contacts[contactID] != nil else { throw .notFound("no such contact") }
            return try rules(session, contactID, &mutation)
        }
    }
}
