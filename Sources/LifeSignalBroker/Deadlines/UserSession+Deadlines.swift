import LifeSignalProtocol

extension UserSession {
    /// The deadline passed without a check-in: the user is non-responsive and every responder
    /// gets "{A} missed their check-in." (§8). Nothing happens if the deadline moved meanwhile.
    func markNonResponsive(missing deadline: Int64) {
        var mutation = Mutation(now: WallClock.nowMs())
        guard user.checkInDeadline == deadline, !user.isNonResponsive, deadline <= mutation.now else { return }
        var updated = user
        updated.isNonResponsive = true
        replaceUser(with: updated, &mutation)
        tellEach(responderIDs, .nonResponsive, "\(user.name) missed their check-in.", into: &mutation)
        commit(mutation)
    }
}
