/// Why the broker ended a device's connection on its own (PROTOCOL §3, §9), not the device: each
/// is counted by reason (`lifesignal_connections_cut_total`) and logged at info, at most once per
/// reason every `LogThrottle.intervalMs`. A load run whose devices are cut says which from these.
enum ConnectionCut: CaseIterable {
    /// Sent nothing for twice the heartbeat.
    case heartbeat
    /// Said no `hello` within `--hello-timeout-ms`.
    case helloTimeout
    /// Read too little of what it was sent (`--max-outbound-bytes`).
    case slowReader
    /// The same device connected again.
    case replaced
    /// The account was deleted (§12).
    case accountDeleted
    /// The device's credential was revoked (§12).
    case revoked

    /// Its `reason` in `lifesignal_connections_cut_total`.
    var metricLabel: String {
        switch self {
        case .heartbeat: "heartbeat"
        case .helloTimeout: "hello_timeout"
        case .slowReader: "slow_reader"
        case .replaced: "replaced"
        case .accountDeleted: "account_deleted"
        case .revoked: "revoked"
        }
    }

    var logMessage: String {
        switch self {
        case .heartbeat: "closing silent connection"
        case .helloTimeout: "closing connection without hello"
        case .slowReader: "closing slow reader"
        case .replaced: "closing replaced connection"
        case .accountDeleted: "closing a deleted account's connection"
        case .revoked: "closing a revoked device's connection"
        }
    }
}
