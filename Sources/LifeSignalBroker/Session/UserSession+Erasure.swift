import LifeSignalProtocol

/// `account.delete` (§12) on the embedded broker: the step that erases the account ends its
/// session. Nothing runs for the user from then on; once the store holds the erasure and the
/// request is answered, every device is closed with `account_deleted` and the session leaves.
extension UserSession {
    /// The step's effects erase this account. Stale too: whoever asks for the user now waits for
    /// the session to leave, then finds nobody in the store. No deadline fires for it.
    func beginErasure() {
        isErased = true
        isStale = true
        let userID = self.userID
        broker.onLoop { $0.deadlines?.schedule(userID, at: nil) }
    }

    /// The store answered the erasure (after the request's answer was released).
    func finishErasure(_ result: Result<Void, any Error>) {
        guard case .success = result else {
            // Nothing was erased: the user is reloaded as the store has them.
            isErased = false
            return markStale()
        }
        let tokens = devices.values.compactMap(\.pushToken)
        let userID = self.userID
        broker.onLoop { $0.forgetPushTokens(tokens, of: userID) }
        for device in online { device.connection.cut(.accountDeleted, .deletedAccount) }
        unloadIfIdle()
    }
}
