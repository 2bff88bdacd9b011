/// How a client reconnects after its connection drops: exponential backoff with full jitter.
///
/// Attempt n (from 0) waits a random delay in `0...min(maxDelayMs, initialDelayMs × 2ⁿ)`; full jitter
/// spreads a broker restart's thousands of reconnecting devices over the whole window.
public struct ReconnectPolicy: Sendable, Equatable {
    public var isEnabled: Bool
    public var initialDelayMs: UInt64
    public var maxDelayMs: UInt64

    public init(isEnabled: Bool = true, initialDelayMs: UInt64 = 100, maxDelayMs: UInt64 = 10_000) {
        self.isEnabled = isEnabled
        self.initialDelayMs = max(1, initialDelayMs)
        self.maxDelayMs = max(self.initialDelayMs, maxDelayMs)
    }

    public static let `default` = ReconnectPolicy()
    public static let disabled = ReconnectPolicy(isEnabled: false)
}
