#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RLIMIT_NOFILE: every connection holds one descriptor, so the broker raises the soft limit to
/// the hard one at start (DESIGN §4: 20,000 here) and derives `maxConnections` from it.
public enum OpenFileLimit {
    /// Descriptors kept for everything but connections: the listener, the loop's own, the store
    /// (SQLite's database, WAL and shared memory for the writer and each reader), logs, and the
    /// one a connection refused at the limit holds for a moment.
    public static let reserved = 256

    /// Raises the soft limit to the hard limit; returns the limit now in force.
    @discardableResult
    public static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(resource, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int32.max) ? Int(Int32.max) : Int(limit.rlim_cur)
    }

    /// The default `maxConnections` under an open-file limit of `limit`: the limit less the
    /// reserve, or half of a limit too small to spare the whole reserve.
    public static func defaultMaxConnections(limit: Int) -> Int {
        limit > 2 * reserved ? limit - reserved : max(1, limit / 2)
    }

    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif
}
