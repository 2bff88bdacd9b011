#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Broker timestamps as a person reads them: "just now", "5s ago", "3m ago", "2h ago", "yesterday",
/// "in 22h". Times are measured on the broker's clock: each hello carries the broker's time, and
/// the offset corrects a device whose clock is off (a skewed clock would otherwise show "in 2m"
/// for something that just happened).
struct RelativeTime {
    /// Broker time minus local time.
    var offsetMs: Int64 = 0

    init() {}

    init(serverTime: Int64) {
        sync(serverTime: serverTime)
    }

    mutating func sync(serverTime: Int64) {
        offsetMs = serverTime - Self.localNowMs()
    }

    var nowMs: Int64 { Self.localNowMs() + offsetMs }

    /// How long ago `milliseconds` was. A time slightly in the future (skew left after the
    /// correction) still reads "just now".
    func ago(_ milliseconds: Int64) -> String {
        let elapsed = nowMs - milliseconds
        if elapsed < 5_000 { return "just now" }
        if elapsed >= 86_400_000 && elapsed < 2 * 86_400_000 { return "yesterday" }
        // Past a week the count of days is harder to place than the date.
        if elapsed >= 7 * 86_400_000 { return "on " + Readable.date(milliseconds) }
        return Self.span(elapsed) + " ago"
    }

    /// How far ahead `milliseconds` is: "in 22h", or "3m overdue" once it has passed.
    func until(_ milliseconds: Int64) -> String {
        let remaining = milliseconds - nowMs
        // Within the second either way it is "now", never "in 0s" or "0s overdue".
        if remaining > -1_000 && remaining < 1_000 { return "now" }
        // Rounded: a deadline a day away, read a few milliseconds later, is still "in 1d", not "in 23h".
        return remaining > 0
            ? "in " + Self.span(remaining, rounded: true) : Self.span(-remaining, rounded: true) + " overdue"
    }

    /// The largest unit: "45s", "3m", "2h", "4d"; truncated ("5s ago" means at least 5s), or rounded.
    static func span(_ milliseconds: Int64, rounded: Bool = false) -> String {
        let seconds = rounded ? (milliseconds + 500) / 1_000 : milliseconds / 1_000
        func whole(_ unit: Int64) -> Int64 { rounded ? (seconds + unit / 2) / unit : seconds / unit }
        if seconds < 60 { return "\(seconds)s" }
        if whole(60) < 60 { return "\(whole(60))m" }
        if whole(3_600) < 24 { return "\(whole(3_600))h" }
        return "\(whole(86_400))d"
    }

    static func localNowMs() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000 + Int64(now.tv_nsec) / 1_000_000
    }
}
