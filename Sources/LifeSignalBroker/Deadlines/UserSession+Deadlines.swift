import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// The deadline passed without a check-in: the user is non-responsive and every responder
    /// gets "{A} missed their check-in." (§8). Nothing happens if the deadline moved meanwhile.
    func markNonResponsive(missing deadline: Int64) {
        var mutation = Mutation(now: WallClock.nowMs())
        let userID = self.userID
        let fired = try? step(involving: responderIDs, &mutation) { (step) throws(ProtocolError) in
            try SafetyRules.missedCheckIn(of: userID, deadline: deadline, in: &step)
        }
        guard fired == true else { return }
        commit(mutation)
        broker.deadlineFired(userID: userID, deadline: deadline, now: mutation.now)
    }
}
