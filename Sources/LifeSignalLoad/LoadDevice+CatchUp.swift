package extension LoadDevice {
    /// What one hello's catch-up delivered (PROTOCOL §3): the events replayed after `resume`, or a
    /// snapshot, and every break in the seq order, which PROTOCOL §6 rules out.
    struct CatchUp {
        /// Events replayed.
        var events = 0
        /// The broker sent a snapshot instead: no resume point, or one older than its retention.
        var snapshot = false
        /// Seqs skipped: between the resume point and the first event, or between two events.
        var missed: Int64 = 0
        /// Events whose seq was not above every one before.
        var repeated = 0

        mutating func record(_ seq: Int64, after previous: Int64?) {
            events += 1
            guard let previous else { return }
            if seq <= previous {
                repeated += 1
            } else if seq > previous + 1 {
                missed += seq - previous - 1
            }
        }
    }
}
