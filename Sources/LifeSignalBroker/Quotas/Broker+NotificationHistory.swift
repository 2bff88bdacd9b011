import LifeSignalEngine

extension Broker {
    /// What a user's load writes before reading them: notifications beyond the history are
    /// pruned (piled up before the limit, or under a higher one), so that a load reads at most
    /// `notificationHistory` of them, and memory and store start from the same ones.
    func notificationHistoryTrim(of userID: String) -> [StoreChange] {
        let limit = configuration.notificationHistory
        return limit > 0 ? [.pruneNotifications(userID: userID, keepNewest: limit)] : []
    }
}
