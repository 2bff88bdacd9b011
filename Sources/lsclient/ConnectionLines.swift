import LifeSignalClient

/// `watch`'s lines about the connection itself: when the broker was lost, why, and when the next
/// try is; times on the broker's clock, like the rest of its output.
enum ConnectionLines {
    /// `disconnected at 05:13:20Z: connection_lost: closed by the broker; reconnecting`.
    static func disconnected(_ error: LifeSignalClientError?, willReconnect: Bool, nowMs: Int64) -> String {
        let reason = error.map { "\($0)" } ?? "closed"
        return "disconnected at \(Readable.clockTime(nowMs)): \(reason)" + (willReconnect ? "; reconnecting" : "")
    }

    /// `try 2 failed (connection_failed: …); next try at 05:13:22Z (in 0.7s)`. The first retry after
    /// a disconnection only says when; one that never connected says it is waiting for the broker.
    static func reconnecting(
        attempt: Int, delayMs: UInt64, error: LifeSignalClientError, wasConnected: Bool, nowMs: Int64
    ) -> String {
        let next = "next try at \(Readable.clockTime(nowMs + Int64(delayMs))) (in \(delay(delayMs)))"
        if attempt > 1 { return "try \(attempt - 1) failed (\(error)); " + next }
        return wasConnected ? next : "waiting for the broker (\(error)); " + next
    }

    /// "0.7s", "9.9s", "10s".
    static func delay(_ milliseconds: UInt64) -> String {
        milliseconds < 10_000
            ? "\(milliseconds / 1_000).\(milliseconds % 1_000 / 100)s" : "\((milliseconds + 500) / 1_000)s"
    }
}
