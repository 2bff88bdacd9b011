import LifeSignalProtocol

/// What a client reports on `LifeSignalClient.events`, in the order it happened.
///
/// After each (re)connection the catch-up comes first (`snapshot` or `event`s), then `connected`
/// once it is applied, then live `event`s. `DeviceState` has already applied each snapshot and event
/// when it is yielded. While the broker is out of reach, each retry is announced by `reconnecting`.
public enum ClientEvent: Sendable, Equatable {
    /// Caught up: `state.lastSeq` has reached `hello.lastSeq`.
    case connected(HelloResult)
    /// The broker sent the full state (no resume, or events no longer retained).
    case snapshot(Snapshot)
    case event(seq: Int64, name: String, data: JSONValue)
    /// The connection ended. `error` is nil after `close()`/`bye()`; `willReconnect` says whether the
    /// client is retrying (it is not after `unauthenticated`, `replaced`, `unsupported_version`,
    /// `revoked`, `account_deleted`, `too_many_devices`, `close()` or `bye()`).
    case disconnected(error: LifeSignalClientError?, willReconnect: Bool)
    /// The next connection attempt, number `attempt` (from 1) since the client was last live, starts
    /// in `delayMs`; `error` is why the previous connection or attempt ended. One per attempt: after
    /// `disconnected(willReconnect: true)`, and while a first `connect()` waits for the broker
    /// (`ReconnectPolicy.retriesFirstConnect`). So that a person can be told what is going on.
    case reconnecting(attempt: Int, delayMs: UInt64, error: LifeSignalClientError)
}
