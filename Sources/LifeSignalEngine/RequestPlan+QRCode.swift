import LifeSignalProtocol
import LifeSignalRules

extension RequestPlan.QRCodeUse {
    /// What follows the lookup of a QR code's owner, whichever store looked it up.
    package enum Next: Sendable {
        /// Nobody has the code: refused with `QRCodeRules.unknown` and counted as a failed add (§10).
        case unknown
        /// `contacts.add`: one step of `rules` with the owner involved.
        case step(involving: String, RequestPlan.Rules)
        /// `qr.lookup`: answered from the owner alone; nothing changes.
        case answer(Result<Reply, ProtocolError>)
    }

    /// What follows once the code's owner is known (nil: nobody has it).
    package func next(after owner: QRCodeOwner?) -> Next {
        guard let owner else { return .unknown }
        switch self {
        case .add(let rules):
            return .step(involving: owner.id, rules(owner.id))
        case .show(let answer):
            do throws(ProtocolError) {
                return .answer(.success(try answer(owner)))
            } catch {
                return .answer(.failure(error))
            }
        }
    }
}
