/// CPU seconds a process spent, split as the kernel reports them.
struct CPUTime {
    var user: Double
    var system: Double

    var total: Double { user + system }

    static func - (lhs: CPUTime, rhs: CPUTime) -> CPUTime {
        CPUTime(user: lhs.user - rhs.user, system: lhs.system - rhs.system)
    }
}
