import Foundation

/// How long a message waits before its next try: exponential with jitter, so that many messages
/// failing together do not retry together; from a minute when FCM says 429 without `Retry-After`
/// (FCM's rule for quota errors); and never before FCM's `Retry-After`, however long.
public struct FCMBackoff: Sendable, Equatable {
    /// Tries per message, the first included, except safety pushes, which are tried until FCM answers.
    public var maxAttempts = 5
    public var baseDelay: Duration = .milliseconds(500)
    public var maxDelay: Duration = .seconds(30)
    /// After a 429 without `Retry-After`: the first wait, and the most it doubles to.
    public var rateLimitedDelay: Duration = .seconds(60)
    public var maxRateLimitedDelay: Duration = .seconds(960)

    public init() {}

    /// Whether a message that has been tried `attempts` times may be tried again.
    package func allowsRetry(after attempts: Int, isSafety: Bool = false) -> Bool { isSafety || attempts < maxAttempts }

    /// The wait after try number `attempt` (1-based) failed. `unit` in 0..<1 picks the jitter:
    /// between half and all of `baseDelay * 2^(attempt-1)` (at most `maxDelay`); after a 429
    /// without `Retry-After`, between all and 1.25 times `rateLimitedDelay * 2^(attempt-1)`, so
    /// never under a minute.
    package func delay(afterAttempt attempt: Int, retryAfter: Duration?, rateLimited: Bool = false, unit: Double) -> Duration {
        let doublings = min(max(attempt - 1, 0), 30)
        let unit = min(max(unit, 0), 1)
        if rateLimited && retryAfter == nil {
            let exponential = min(rateLimitedDelay * (1 << doublings), maxRateLimitedDelay)
            return exponential + exponential / 4 * unit
        }
        let exponential = min(baseDelay * (1 << doublings), maxDelay)
        let jittered = exponential / 2 + exponential / 2 * unit
        guard let retryAfter else { return jittered }
        return max(jittered, retryAfter)
    }

    /// A `Retry-After` header's wait: delta-seconds (what FCM sends). An HTTP date or anything
    /// else is not understood and leaves the backoff to decide.
    package static func retryAfter(header value: String?) -> Duration? {
        guard let value, let seconds = Int64(value.trimmingCharacters(in: .whitespaces)), seconds >= 0 else {
            return nil
        }
        return .seconds(seconds)
    }
}
