/// CPU seconds a process spent, split as the kernel reports them.
package struct CPUTime {
    package var user: Double
    package var system: Double

    package var total: Double { user + system }

    package static func - (lhs: CPUTime, rhs: CPUTime) -> CPUTime {
        CPUTime(user: lhs.user - rhs.user, system: lhs.system - rhs.system)
    }
}
