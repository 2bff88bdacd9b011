/// A stretch of overload (the store backlog full, the connection limit reached), logged as two
/// lines however long it lasts: when it begins, and when it ends with how long it lasted and how
/// many it refused (answered `overloaded`, or closed to make room). The refusals in between are
/// the throttled warnings (LogThrottle).
struct OverloadEpisode {
    private var startedAtMs: UInt64?
    private var refused = 0

    /// True when this begins one (false: one is already under way).
    mutating func begin(nowMs: UInt64) -> Bool {
        guard startedAtMs == nil else { return false }
        startedAtMs = nowMs
        refused = 0
        return true
    }

    mutating func countRefusal() { refused += 1 }

    /// The episode that ends here, if one was under way.
    mutating func end(nowMs: UInt64) -> (durationMs: UInt64, refused: Int)? {
        guard let started = startedAtMs else { return nil }
        startedAtMs = nil
        return (nowMs - min(started, nowMs), refused)
    }
}
