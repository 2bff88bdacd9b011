import LifeSignalProtocol

extension UserSession {
    /// At most `maxContacts` contacts per user (§10): a profile change, a check-in or an alert
    /// loads every contact and runs on the one loop and the one writer, so their number is what
    /// such a request costs. A new contact needs room on both sides; `other` nil checks this side.
    func ensureRoomForContact(with other: UserSession? = nil) throws(ProtocolError) {
        let limit = configuration.maxContacts
        guard limit > 0 else { return }
        guard contacts.count < limit else { throw .limitExceeded("you already have \(limit) contacts") }
        if let other, other.assumeIsolated({ $0.contacts.count }) >= limit {
            throw .limitExceeded("that user already has \(limit) contacts")
        }
    }
}
