/// What a device that says `hello` is sent before its live events (§3), decided once for every
/// store: the events after `resume` while all of them are kept and they fit, else a snapshot.
package enum CatchUpPlan: Sendable, Equatable {
    /// The events `(after, through]`, if their frames take at most `maxBytes`; a snapshot when
    /// they do not, so that a device's own catch-up never cuts it (§3, v1.1).
    case replay(after: Int64, through: Int64, maxBytes: Int)
    case snapshot

    /// The plan for a device resuming after `resume` (nil: a fresh device), when the user's newest
    /// event is `head` and the oldest still kept is `oldestRetained`; a replay may take half of
    /// what a connection may have unsent.
    package init(resume: Int64?, head: Int64, oldestRetained: Int64, maxOutboundBytes: Int) {
        guard let resume, resume >= 0, resume <= head, resume + 1 >= oldestRetained else {
            self = .snapshot
            return
        }
        self = .replay(after: resume, through: head, maxBytes: maxOutboundBytes / 2)
    }
}
