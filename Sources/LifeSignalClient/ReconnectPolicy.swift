/// How a client reconnects after its connection drops: exponential backoff with full jitter.
///
/// Attempt n (from 0) waits a random delay in `0...min(maxDelayMs, initialDelayMs × 2ⁿ)`; full jitter
/// spreads a broker restart's thousands of reconnecting devices over the whole window.
public struct ReconnectPolicy: Sendable, Equatable {
    public var isEnabled: Bool
    public var initialDelayMs: UInt64
    public var maxDelayMs: UInt64
    /// Also retry a first `connect()` that cannot reach the broker, instead of throwing: it returns
    /// once connected, and throws only for a final error (`unauthenticated`, …) or `close()`. For a
    /// device that is started before its broker.
    public var retriesFirstConnect: Bool

    public init(
        isEnabled: Bool = true, initialDelayMs: UInt64 = 100, maxDelayMs: UInt64 = 10_000,
        retriesFirstConnect: Bool = false
    ) {
        self.isEnabled = isEnabled
        self.initialDelayMs = max(1, initialDelayMs)
        self.maxDelayMs = max(self.initialDelayMs, maxDelayMs)
        self.retriesFirstConnect = retriesFirstConnect
    }

    public static let `default` = ReconnectPolicy()
    public static let disabled = ReconnectPolicy(isEnabled: false)
}
