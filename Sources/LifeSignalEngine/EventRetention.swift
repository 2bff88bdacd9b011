/// How long a user's events are kept for `hello … resume` (§6), decided once for every store:
/// the newest `retention`, pruned in steps so that retention costs one DELETE per 64 events,
/// not one per event.
package enum EventRetention {
    package static let step: Int64 = 64

    /// The seq through which the user's events go once their newest is `head`, with `oldestRetained`
    /// the oldest still kept; nil while fewer than a step's worth lie beyond the newest `retention`.
    package static func pruneThrough(head: Int64, oldestRetained: Int64, retention: Int) -> Int64? {
        let through = head - Int64(retention)
        return through - oldestRetained >= step - 1 ? through : nil
    }
}
