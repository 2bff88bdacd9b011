import DequeModule
import LifeSignalLimits

/// The pushes waiting for FCM, chosen so that no recipient's traffic costs another's. Pure: the
/// time is passed in (a duration since some start), so tests drive it without a clock.
///
/// - Safety pushes (`PushTraits.safetyTypes`) are never dropped, go before any other, and are
///   tried again until FCM answers or rejects the token.
/// - Other pushes wait in a queue per recipient (user) of at most `perRecipient`: past it that
///   recipient's oldest goes. All of them together are at most `capacity`: past it the recipient
///   with the most waiting loses its oldest, so a flood for one user costs only that user.
/// - A ping waiting for a device is replaced by a newer one from the same sender (the device
///   would collapse them anyway), and each sender's pings are pushed within `pingsPerMinute`.
/// - Recipients take turns; a try that failed in a way that may pass waits here, not in a send
///   slot, so a slow or refusing FCM lowers throughput and holds up nobody.
package struct FairPushQueue {
    package struct Limits: Sendable {
        var capacity = 10_000
        var perRecipient = 64
        var maxConcurrentSends = 8
        /// Ping notifications a sender may have pushed per minute, after a burst of `pingBurst`.
        var pingsPerMinute = 6.0
        var pingBurst = 10
        var backoff = FCMBackoff()
    }

    /// What became of a message handed to `enqueue`.
    package enum Admission: Equatable {
        case queued
        /// Queued, and an older push (of this recipient, or of the one with most waiting) dropped.
        case queuedDroppingAnother
        /// It replaced a ping from the same sender still waiting for the same device.
        case coalesced
        /// Its sender is past the ping budget: kept in the store only.
        case throttled
        /// No room, and its recipient has the most waiting: kept in the store only.
        case dropped
        /// The queue is closed.
        case closed
    }

    /// What to do with a message after a try.
    package enum Decision: Equatable {
        case done
        /// Tried again once `at` has come.
        case retry(at: Duration)
        case gaveUp
    }

    /// A message taken to be sent, given back to `finish`.
    package struct Ticket: Sendable, Equatable {
        let id: UInt64
        let message: PushMessage
        /// This try's number, 1 for the first.
        let attempt: Int
    }

    private struct Entry {
        /// Order of arrival: a recipient's queue is sorted by it.
        let id: UInt64
        var message: PushMessage
        let traits: PushTraits
        var attempts = 0
        var notBefore: Duration = .zero
    }

    private struct Recipient {
        var safety: [Entry] = []
        var others: [Entry] = []
        var isEmpty: Bool { safety.isEmpty && others.isEmpty }
    }

    package let limits: Limits
    private var recipients: [String: Recipient] = [:]
    /// The recipients with something waiting, in the order of their turns.
    private var turns: Deque<String> = []
    private var inFlight: [UInt64: Entry] = [:]
    private var waitingSafety = 0
    private var waitingOthers = 0
    private var nextID: UInt64 = 0
    private var pingBudget: KeyedRateLimiter<String>
    /// The budget is charged once per ping notification, whose messages (one per device) come together.
    private var lastPingCharge: (notificationID: String, allowed: Bool)?
    private(set) var isClosed = false

    package init(limits: Limits = Limits()) {
        self.limits = limits
        pingBudget = KeyedRateLimiter(ratePerSecond: limits.pingsPerMinute / 60, burst: limits.pingBurst)
    }

    /// Messages waiting or being sent.
    package var backlog: Int { waitingSafety + waitingOthers + inFlight.count }

    package mutating func close() { isClosed = true }

    package mutating func enqueue(_ message: PushMessage, traits: PushTraits, now: Duration) -> Admission {
        guard !isClosed else { return .closed }
        if traits.isSafety {
            insert(Entry(id: takeID(), message: message, traits: traits), safety: true)
            return .queued
        }
        if traits.isPing {
            if coalesce(message, traits: traits) { return .coalesced }
            guard chargePing(message, sender: traits.relatedContactID, now: now) else { return .throttled }
        }
        var admission = Admission.queued
        if recipients[message.userID]?.others.count ?? 0 >= limits.perRecipient {
            dropOldestOther(of: message.userID)
            admission = .queuedDroppingAnother
        } else if waitingOthers >= limits.capacity {
            guard let fullest = recipientWithMostOthers(),
                  recipients[fullest]?.others.count ?? 0 > recipients[message.userID]?.others.count ?? 0
            else { return .dropped }
            dropOldestOther(of: fullest)
            admission = .queuedDroppingAnother
        }
        insert(Entry(id: takeID(), message: message, traits: traits), safety: false)
        return admission
    }

    /// The next message to send, if a send slot is free and one is due: safety first, recipients
    /// taking turns.
    package mutating func next(now: Duration) -> Ticket? {
        guard !isClosed, inFlight.count < limits.maxConcurrentSends else { return nil }
        if waitingSafety > 0, let ticket = take(safety: true, now: now) { return ticket }
        return waitingOthers > 0 ? take(safety: false, now: now) : nil
    }

    /// Records how a try ended; a message to be tried again waits until its backoff has passed.
    /// `jitter` in 0..<1 picks the wait within the backoff's range.
    package mutating func finish(_ ticket: Ticket, _ result: FCMTryResult, now: Duration, jitter: Double) -> Decision {
        guard var entry = inFlight.removeValue(forKey: ticket.id) else { return .done }
        guard let retry = result.retry else { return .done }
        let backoff = limits.backoff
        guard !isClosed, backoff.allowsRetry(after: entry.attempts, isSafety: entry.traits.isSafety) else {
            return .gaveUp
        }
        entry.notBefore = now + backoff.delay(afterAttempt: entry.attempts, retryAfter: retry.after,
                                              rateLimited: retry.rateLimited, unit: jitter)
        insert(entry, safety: entry.traits.isSafety)
        return .retry(at: entry.notBefore)
    }

    /// When the earliest message that is waiting out a backoff is due (nil: none is).
    package func nextDue(after now: Duration) -> Duration? {
        var earliest: Duration?
        for recipient in recipients.values {
            for entry in recipient.safety + recipient.others where entry.notBefore > now {
                earliest = min(earliest ?? entry.notBefore, entry.notBefore)
            }
        }
        return earliest
    }

    // MARK: - Admission

    private mutating func takeID() -> UInt64 {
        nextID += 1
        return nextID
    }

    private mutating func coalesce(_ message: PushMessage, traits: PushTraits) -> Bool {
        guard let sender = traits.relatedContactID,
              let index = recipients[message.userID]?.others.firstIndex(where: {
                  $0.traits.isPing && $0.traits.relatedContactID == sender && $0.message.token == message.token
              })
        else { return false }
        recipients[message.userID]?.others[index].message = message
        return true
    }

    private mutating func chargePing(_ message: PushMessage, sender: String?, now: Duration) -> Bool {
        guard let sender else { return true }
        if let last = lastPingCharge, last.notificationID == message.notificationID { return last.allowed }
        let allowed = pingBudget.take(sender, nowMs: UInt64(max(now / .milliseconds(1), 0)))
        lastPingCharge = (message.notificationID, allowed)
        return allowed
    }

    private func recipientWithMostOthers() -> String? {
        recipients.max { $0.value.others.count < $1.value.others.count }?.key
    }

    private mutating func dropOldestOther(of userID: String) {
        guard recipients[userID]?.others.isEmpty == false else { return }
        recipients[userID]?.others.removeFirst()
        waitingOthers -= 1
        removeIfEmpty(userID)
    }

    // MARK: - Queues

    /// In arrival order: a message back from a failed try goes before those that came after it.
    private mutating func insert(_ entry: Entry, safety: Bool) {
        let userID = entry.message.userID
        if recipients[userID] == nil {
            recipients[userID] = Recipient()
            turns.append(userID)
        }
        if safety {
            let index = recipients[userID]!.safety.firstIndex { $0.id > entry.id } ?? recipients[userID]!.safety.endIndex
            recipients[userID]!.safety.insert(entry, at: index)
            waitingSafety += 1
        } else {
            let index = recipients[userID]!.others.firstIndex { $0.id > entry.id } ?? recipients[userID]!.others.endIndex
            recipients[userID]!.others.insert(entry, at: index)
            waitingOthers += 1
        }
    }

    /// The first due message of the first recipient in turn that has one; that recipient's turn
    /// then goes to the back.
    private mutating func take(safety: Bool, now: Duration) -> Ticket? {
        for _ in 0..<turns.count {
            let userID = turns.removeFirst()
            turns.append(userID)
            guard let recipient = recipients[userID] else { continue }
            let queue = safety ? recipient.safety : recipient.others
            guard let index = queue.firstIndex(where: { $0.notBefore <= now }) else { continue }
            var entry = safety ? recipients[userID]!.safety.remove(at: index) : recipients[userID]!.others.remove(at: index)
            if safety { waitingSafety -= 1 } else { waitingOthers -= 1 }
            removeIfEmpty(userID)
            entry.attempts += 1
            inFlight[entry.id] = entry
            return Ticket(id: entry.id, message: entry.message, attempt: entry.attempts)
        }
        return nil
    }

    private mutating func removeIfEmpty(_ userID: String) {
        guard recipients[userID]?.isEmpty == true else { return }
        recipients[userID] = nil
        if let index = turns.lastIndex(of: userID) { turns.remove(at: index) }
    }
}
