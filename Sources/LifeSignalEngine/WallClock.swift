import Foundation

/// Milliseconds since the Unix epoch: the protocol's time unit (§ "Times are integers").
package enum WallClock {
    package static func nowMs() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}
