import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// `contacts.add`: the owner of `qrCode` becomes a contact, both sides at once (§5).
    func addContact(qrCode: String, isResponder: Bool, isDependent: Bool, _ request: Request,
                    from connection: ClientConnection) {
        let userID = self.userID
        if let refusal = broker.onLoop({ $0.failedAddsRefusal(for: userID) }) {
            return connection.respond(error: refusal, rid: request.rid)
        }
        let maxContacts = configuration.maxContacts
        afterQuery(.userIDForQRCode(qrCode), for: request, from: connection) { session, answer in
            guard case .userID(let otherID?) = answer else {
                session.broker.onLoop { $0.recordFailedAdd(by: userID) }
                return connection.respond(error: .notFound("no user has that QR code"), rid: request.rid)
            }
            session.run(request, from: connection, involving: [otherID]) { (step) throws(ProtocolError) in
                try ContactRules.add(otherID, by: userID, qrCode: qrCode, isResponder: isResponder,
                                     isDependent: isDependent, maxContacts: maxContacts, in: &step)
            }
        }
    }

    /// `contacts.remove`: both sides and any pings between them go (§5).
    func removeContact(_ contactID: String, _ request: Request, from connection: ClientConnection) {
        withContact(contactID, request, from: connection) { (step, userID, contactID) throws(ProtocolError) in
            try ContactRules.remove(contactID, by: userID, in: &step)
        }
    }

    /// `contacts.setRoles`: both sides change together (§5).
    func setRoles(of contactID: String, isResponder: Bool, isDependent: Bool, _ request: Request,
                  from connection: ClientConnection) {
        withContact(contactID, request, from: connection) { (step, userID, contactID) throws(ProtocolError) in
            try ContactRules.setRoles(of: contactID, by: userID, isResponder: isResponder, isDependent: isDependent,
                                      in: &step)
        }
    }

    /// Every contact as this user sees them, in the order they were added: the order of
    /// `contacts.list` and of a snapshot.
    var contactDocuments: [Contact] {
        contacts.values.sorted { ($0.addedAt, $0.contactID) < ($1.addedAt, $1.contactID) }.map(view(of:))
    }

    /// `contacts.list`.
    var contactList: JSONObject { ["contacts": .array(contactDocuments.map(\.json))] }

    typealias ContactStepRules = @Sendable (inout Step, _ userID: String, _ contactID: String) throws(ProtocolError)
        -> JSONObject

    /// Runs `rules` for a request naming an existing contact, with that contact loaded.
    func withContact(_ contactID: String, _ request: Request, from connection: ClientConnection,
                     _ rules: @escaping ContactStepRules) {
        guard contacts[contactID] != nil else {
            return connection.respond(error: .notFound("no such contact"), rid: request.rid)
        }
        let userID = self.userID
        run(request, from: connection, involving: [contactID]) { (step) throws(ProtocolError) in
            try rules(&step, userID, contactID)
        }
    }
}
