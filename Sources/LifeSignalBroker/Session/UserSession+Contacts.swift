import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// `contacts.add` and `qr.lookup`: the owner of `qrCode` is looked up first, then `use`d;
    /// unknown codes count against the user's `failedAddsPerMinute` (§10).
    func byQRCode(_ qrCode: String, _ use: RequestPlan.QRCodeUse, _ request: Request,
                  from connection: ClientConnection) {
        let userID = self.userID
        if let refusal = broker.onLoop({ $0.failedAddsRefusal(for: userID) }) {
            return connection.respond(error: refusal, rid: request.rid)
        }
        afterQuery(.qrCodeOwner(qrCode), for: request, from: connection) { session, answer in
            let owner: QRCodeOwner? = if case .qrCodeOwner(let owner?) = answer { owner } else { nil }
            switch use.next(after: owner) {
            case .unknown:
                session.broker.onLoop { $0.recordFailedAdd(by: userID) }
                connection.respond(error: QRCodeRules.unknown, rid: request.rid)
            case .step(let ownerID, let rules):
                session.run(request, from: connection, involving: [ownerID], rules)
            case .answer(.success(let reply)):
                connection.respond(rid: request.rid, reply)
            case .answer(.failure(let error)):
                connection.respond(error: error, rid: request.rid)
            }
        }
    }

    /// Every contact as this user sees them, in the order they were added: the order of
    /// `contacts.list` and of a snapshot.
    var contactDocuments: [Contact] {
        contacts.values.sorted { ($0.addedAt, $0.contactID) < ($1.addedAt, $1.contactID) }.map(view(of:))
    }

    /// `contacts.list`.
    var contactList: Reply { .contacts(contactDocuments) }
}
