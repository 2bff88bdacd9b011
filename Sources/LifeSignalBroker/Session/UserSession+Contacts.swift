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
            guard case .qrCodeOwner(let owner?) = answer else {
                session.broker.onLoop { $0.recordFailedAdd(by: userID) }
                return connection.respond(error: QRCodeRules.unknown, rid: request.rid)
            }
            switch use {
            case .add(let rules):
                session.run(request, from: connection, involving: [owner.id], rules(owner.id))
            case .show(let answer):
                do throws(ProtocolError) {
                    connection.respond(rid: request.rid, try answer(owner))
                } catch {
                    connection.respond(error: error, rid: request.rid)
                }
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
