import LifeSignalProtocol

// A broker that accepts and never answers (frozen, or wedged behind a stuck write) must not hold a
// client for ever: `hello` and every request, keepalives included, are answered within
// `responseTimeoutMs`, and a catch-up never pauses that long, or the connection is dropped and the
// next endpoint tried. Answers come in request order, so the oldest request in flight is the one
// late first, and one timer serves them all.
extension LifeSignalClient {
    /// Sends a framed request (from `link.session`) and makes sure its deadline is watched.
    func sendRequest(_ bytes: [UInt8], on link: ClientLink) {
        link.send(bytes)
        if !timers.answerTimerIsArmed { armAnswerTimer(afterMs: configuration.responseTimeoutMs) }
    }

    private func armAnswerTimer(afterMs delay: UInt64) {
        timers.answer.start(afterMs: max(1, delay)) { [weak self] in
            self?.assumeIsolated { $0.answerTimerFired() }
        }
        timers.answerTimerIsArmed = true
    }

    private func answerTimerFired() {
        timers.answerTimerIsArmed = false
        guard let link else { return }
        let waitingFor: (what: String, sinceMs: UInt64)
        if let oldest = link.session.oldestUnanswered {
            waitingFor = ("no answer to \(oldest.op)", oldest.sentAtMs)
        } else if link.session.isCatchingUp {
            waitingFor = ("nothing more of the catch-up", link.lastHeardMs)
        } else {
            return  // nothing awaited: the next request arms the timer again
        }
        let timeout = configuration.responseTimeoutMs
        let waited = loop.nowMs &- waitingFor.sinceMs
        guard waited >= timeout else {
            armAnswerTimer(afterMs: timeout - waited)
            return
        }
        drop(link, reason: .timedOut("\(waitingFor.what) from \(endpoint) within \(timeout) ms"))
    }
}
