/// The longest stretch of a run's window in which devices waited and heard nothing: no answer, no
/// error and no delivery while requests were in flight or devices were cut. A broker that stopped
/// (killed, restarted, stalled) shows as one; an idle moment with nothing awaited does not.
struct SilenceWatch {
    /// How long a silence may last before the run fails its checks.
    static let limitSeconds = 5.0

    private var lastHeard: UInt64 = 0
    private var lastTickNs: UInt64?
    private var silentSinceNs: UInt64?
    private(set) var longestNs: UInt64 = 0
    /// When the longest silence began, from the start of the window.
    private(set) var longestStartNs: UInt64 = 0

    /// At each progress tick: `heard` counts everything heard so far, `waiting` whether anything
    /// was awaited at this tick.
    mutating func observe(heard: UInt64, waiting: Bool, nowNs: UInt64, windowStartNs: UInt64) {
        defer { (lastHeard, lastTickNs) = (heard, nowNs) }
        guard heard == lastHeard, waiting, let previousTickNs = lastTickNs else {
            silentSinceNs = nil
            return
        }
        // Nothing was heard since the previous tick: the silence is at least as long as from there
        // (something may have been heard just before it), never counted longer than it was.
        let since = silentSinceNs ?? previousTickNs
        silentSinceNs = since
        if nowNs - since > longestNs {
            longestNs = nowNs - since
            longestStartNs = since >= windowStartNs ? since - windowStartNs : 0
        }
    }

    var longestSeconds: Double { Double(longestNs) / 1e9 }

    /// Why the run fails for its silence, or nil.
    var failure: String? {
        guard longestSeconds >= Self.limitSeconds else { return nil }
        return "nothing was answered or delivered for \(NumberFormat.fixed(longestSeconds, 1)) s "
            + "(from \(NumberFormat.fixed(Double(longestStartNs) / 1e9, 1)) s into the window) while devices waited"
    }
}
