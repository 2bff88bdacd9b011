import LifeSignalProtocol

// The account itself (PROTOCOL.md §12).
extension LifeSignalClient {
    /// `account.delete`: the account and everything of it are erased, and every contact is told.
    /// `confirm` must be the user's current name. Once answered, every device of the user (this
    /// one too) is disconnected with `account_deleted`, and does not reconnect; the state cache is
    /// cleared.
    public func deleteAccount(confirm: String) async throws {
        _ = try await request(.accountDelete(confirm: confirm))
        clearStateCache()
    }
}
