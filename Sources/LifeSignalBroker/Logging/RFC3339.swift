#if canImport(Glibc)
import Glibc
#endif

/// Timestamps for logs and lsbroker's listings: `2026-11-25T09:41:07.123Z`. By hand with `gmtime_r`: Foundation's
/// formatters are neither cheap nor, on Linux, safe to share between threads.
public enum RFC3339 {
    public static func utcMilliseconds(_ milliseconds: Int64) -> String {
        var seconds = time_t(milliseconds.floorDivided(by: 1_000))
        let millis = Int(milliseconds - Int64(seconds) * 1_000)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func padded(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(padded(Int(parts.tm_year) + 1900, 4))-\(padded(Int(parts.tm_mon) + 1, 2))-\(padded(Int(parts.tm_mday), 2))"
            + "T\(padded(Int(parts.tm_hour), 2)):\(padded(Int(parts.tm_min), 2)):\(padded(Int(parts.tm_sec), 2))"
            + ".\(padded(millis, 3))Z"
    }
}

private extension Int64 {
    /// Rounds towards minus infinity, so times before 1970 keep a millisecond part of 0…999.
    func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor < 0) ? quotient - 1 : quotient
    }
}
