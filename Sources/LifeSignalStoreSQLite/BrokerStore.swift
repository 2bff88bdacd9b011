/// Runs completion work where the caller wants it (the broker passes its loop's `execute`).
public typealias CompletionScheduler = @Sendable (@escaping @Sendable () -> Void) -> Void

/// Durable storage behind the broker. The loop never touches the database: writes and the
/// reads that must see them are group-committed in order on the store's own thread;
/// completions come back through the scheduler, one hop per batch.
public protocol BrokerStore: AnyObject, Sendable {
    /// Queues a write for the next group commit. `completion` runs after the transaction holding it
    /// has committed (or failed); completions run in submission order.
    func submit(_ write: StoreWrite, completion: @escaping @Sendable (Result<StoreWriteResult, Error>) -> Void)
    /// Waits for every queued write to commit, then releases the database.
    func close()
}
