import LifeSignalPostgres
import LifeSignalProtocol

/// `account.delete` (§12) across the cluster: whichever broker holds a device of the user
/// closes it with `account_deleted`.
extension ClusterNode {
    /// The erasure committed here and was answered: the user's devices here are closed now,
    /// those on other brokers by the notice, or, should it be lost, at their broker's next head
    /// check, which finds no row of the user.
    func accountDeleted(_ userID: String) {
        closeDeletedAccount(userID)
        let notice = ClusterHints.deleted(userID: userID)
        run({ try await $0.notify(notice) }, then: { [logger] result in
            if case .failure(let error) = result {
                logger.debug("account deletion notice not sent", metadata: ["lifesignal.error": "\(error)"])
            }
        })
    }

    func closeDeletedAccount(_ userID: String) {
        guard let feed = feeds[userID] else { return }
        for connection in feed.connections.values { connection.cut(.accountDeleted, .deletedAccount) }
    }
}
