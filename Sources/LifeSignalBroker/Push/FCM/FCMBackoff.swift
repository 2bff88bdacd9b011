import Foundation

/// How long a message waits before its next try (on 429, 5xx, a 401 or a network error):
/// exponential with jitter, so that many messages failing together do not retry together, and
/// never less than FCM's `Retry-After` (capped, so one answer cannot park a sender for hours).
public struct FCMBackoff: Sendable, Equatable {
    /// Tries per message, the first included.
    public var maxAttempts = 5
    public var baseDelay: Duration = .milliseconds(500)
    public var maxDelay: Duration = .seconds(30)
    /// The longest `Retry-After` honoured as given.
    public var maxRetryAfter: Duration = .seconds(60)

    public init() {}

    /// Whether a message that has been tried `attempts` times may be tried again.
    func allowsRetry(after attempts: Int) -> Bool { attempts < maxAttempts }

    /// The wait after try number `attempt` (1-based) failed. `unit` in 0..<1 picks the jitter:
    /// the wait lies between half and all of `baseDelay * 2^(attempt-1)` (at most `maxDelay`).
    func delay(afterAttempt attempt: Int, retryAfter: Duration?, unit: Double) -> Duration {
        let doublings = min(max(attempt - 1, 0), 30)
        let exponential = min(baseDelay * (1 << doublings), maxDelay)
        let jittered = exponential / 2 + exponential / 2 * min(max(unit, 0), 1)
        guard let retryAfter else { return jittered }
        return max(jittered, min(retryAfter, maxRetryAfter))
    }

    /// A `Retry-After` header's wait: delta-seconds (what FCM sends). An HTTP date or anything
    /// else is not understood and leaves the backoff to decide.
    static func retryAfter(header value: String?) -> Duration? {
        guard let value, let seconds = Int64(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }
}
