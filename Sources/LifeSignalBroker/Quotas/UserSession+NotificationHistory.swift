extension UserSession {
    /// Keeps the newest `notificationHistory` notifications (§10): called after each one is
    /// stored, it prunes the older ones, in memory and in `mutation`, once a step is due.
    func pruneNotificationHistoryIfDue(into mutation: inout Mutation) {
        guard notifications.pruneIfDue() else { return }
        mutation.changes.append(.pruneNotifications(userID: userID, keepNewest: configuration.notificationHistory))
        // Copies read from the store go with their notifications, so the cache stays bounded too
        // (deletions stay). The rules check the ledger as well: a read may still be in flight.
        olderNotifications = olderNotifications.filter { $0.value == nil || notifications.ledger.isStored(id: $0.key) }
    }
}
