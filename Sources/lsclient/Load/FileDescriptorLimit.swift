#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// RLIMIT_NOFILE: each simulated device holds one socket, so the soft limit (often 1,024) is
/// raised to the hard one before connecting (DESIGN §4: 20,000 here, and not raisable).
enum FileDescriptorLimit {
    /// Raises the soft limit to the hard limit; returns the limit now in force.
    static func raiseToHard() -> Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(RLIMIT_NOFILE_VALUE, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// Descriptors the process needs besides the devices' sockets (stdio, the loop's own fds).
    static let reserved = 32

    #if canImport(Glibc)
    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
    #endif
}
