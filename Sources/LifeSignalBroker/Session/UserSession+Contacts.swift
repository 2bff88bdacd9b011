import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// `contacts.add`: the owner of `qrCode`, looked up first, is involved in `rules`; unknown
    /// codes count against the user's `failedAddsPerMinute` (§10).
    func addContact(qrCode: String, _ rules: @escaping @Sendable (String) -> RequestPlan.Rules, _ request: Request,
                    from connection: ClientConnection) {
        let userID = self.userID
        if let refusal = broker.onLoop({ $0.failedAddsRefusal(for: userID) }) {
            return connection.respond(error: refusal, rid: request.rid)
        }
        afterQuery(.userIDForQRCode(qrCode), for: request, from: connection) { session, answer in
            guard case .userID(let ownerID?) = answer else {
                session.broker.onLoop { $0.recordFailedAdd(by: userID) }
                return connection.respond(error: RequestPlan.unknownQRCode, rid: request.rid)
            }
            session.run(request, from: connection, involving: [ownerID], rules(ownerID))
        }
    }

    /// Every contact as this user sees them, in the order they were added: the order of
    /// `contacts.list` and of a snapshot.
    var contactDocuments: [Contact] {
        contacts.values.sorted { ($0.addedAt, $0.contactID) < ($1.addedAt, $1.contactID) }.map(view(of:))
    }

    /// `contacts.list`.
    var contactList: JSONObject { ["contacts": .array(contactDocuments.map(\.json))] }
}
