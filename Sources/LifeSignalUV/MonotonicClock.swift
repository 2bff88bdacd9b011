#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Nanoseconds on the monotonic clock. The loop's own clock (`cachedNowMs`) is in milliseconds,
/// too coarse for round trips and request latencies of tens of microseconds.
public enum MonotonicClock {
    @inline(__always)
    public static func nowNs() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) &* 1_000_000_000 &+ UInt64(time.tv_nsec)
    }
}
