#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Durations and times for people: intervals as lsclient accepts them back (`CheckInInterval`),
/// times in UTC to the millisecond, so that every device and the broker's logs agree and read alike.
extension Readable {
    /// In the largest unit that divides it: "1d", "2h", "90m", "45s".
    static func duration(seconds: Int64) -> String {
        if seconds % 86_400 == 0 { return "\(seconds / 86_400)d" }
        if seconds % 3_600 == 0 { return "\(seconds / 3_600)h" }
        if seconds % 60 == 0 { return "\(seconds / 60)m" }
        return "\(seconds)s"
    }

    /// UTC, to the millisecond like the broker's log: "2025-11-22 05:13:20.621Z".
    static func time(_ milliseconds: Int64) -> String {
        guard let parts = utc(milliseconds) else { return "\(milliseconds)" }
        return "\(date(parts)) " + clockTime(milliseconds)
    }

    /// UTC, the time of day only: "05:13:20.621Z".
    static func clockTime(_ milliseconds: Int64) -> String {
        guard let parts = utc(milliseconds) else { return "\(milliseconds)" }
        let fraction = String((milliseconds % 1_000 + 1_000) % 1_000 + 1_000).dropFirst()
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec)).\(fraction)Z"
    }

    /// UTC: "2025-11-22".
    static func date(_ milliseconds: Int64) -> String {
        utc(milliseconds).map(date) ?? "\(milliseconds)"
    }

    private static func date(_ parts: tm) -> String {
        "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))"
    }

    private static func utc(_ milliseconds: Int64) -> tm? {
        var seconds = time_t(milliseconds / 1000)
        var parts = tm()
        return gmtime_r(&seconds, &parts) != nil ? parts : nil
    }

    private static func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
