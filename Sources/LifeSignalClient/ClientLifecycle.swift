/// Where a `LifeSignalClient` is between `connect()` and `close()`.
enum ClientLifecycle: Equatable {
    /// Not connected and not trying: before `connect()`, after `bye()`, or after a failure that
    /// stops reconnecting. `connect()` may be called.
    case idle
    /// TCP connect, `hello` or catch-up in progress.
    case connecting
    /// Requests may be sent.
    case live
    /// Dropped; a reconnect timer is set.
    case waitingToReconnect
    /// `bye` sent: the close that follows is expected.
    case closing
    /// `close()`: final.
    case closed
}
