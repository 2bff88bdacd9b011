/// Every connection holds one descriptor: the broker raises the soft RLIMIT_NOFILE to the hard one
/// at start (`ProcessFileLimit`; ARCHITECTURE.md, "One process": 20,000 here) and derives
/// `maxConnections` from it.
public enum OpenFileLimit {
    /// Descriptors kept for everything but connections: the listener, the loop's own, the store
    /// (SQLite's database, WAL and shared memory for the writer and each reader), logs, and the
    /// one a connection refused at the limit holds for a moment.
    public static let reserved = 256

    /// The default `maxConnections` under an open-file limit of `limit`: the limit less the
    /// reserve, or half of a limit too small to spare the whole reserve.
    public static func defaultMaxConnections(limit: Int) -> Int {
        limit > 2 * reserved ? limit - reserved : max(1, limit / 2)
    }
}
