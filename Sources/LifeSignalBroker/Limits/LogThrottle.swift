/// At most one log line per kind every `intervalMs`, telling how many were left out since:
/// what an attack makes happen thousands of times a second is logged at a bounded rate. A kind is
/// a refusal's `Kind`, or any other key of what repeats (a failing store, say).
struct LogThrottle: Sendable {
    enum Kind: Hashable, CaseIterable {
        case acceptFailed, connectionRefused, connectionEvicted, overloaded, registerLimited
        case addressConnectionRefused, failedHellosLimited

        /// Its `reason` in `lifesignal_refusals_total`.
        var metricLabel: String {
            switch self {
            case .acceptFailed: "accept_failed"
            case .connectionRefused: "max_connections"
            case .connectionEvicted: "evicted_awaiting_hello"
            case .overloaded: "store_backlog"
            case .registerLimited: "register_rate"
            case .addressConnectionRefused: "max_connections_per_address"
            case .failedHellosLimited: "failed_hellos"
            }
        }
    }

    static let intervalMs: UInt64 = 5_000

    private var nextAtMs: [String: UInt64] = [:]
    private var suppressed: [String: Int] = [:]

    /// nil when this one is left out; else how many of its kind were left out before it.
    mutating func admit(_ kind: Kind, nowMs: UInt64) -> Int? {
        admit(key: kind.metricLabel, nowMs: nowMs)
    }

    /// As above, for a kind named by `key`.
    mutating func admit(key: String, nowMs: UInt64) -> Int? {
        if let next = nextAtMs[key], nowMs < next {
            suppressed[key, default: 0] += 1
            return nil
        }
        nextAtMs[key] = nowMs + Self.intervalMs
        return suppressed.removeValue(forKey: key) ?? 0
    }
}
