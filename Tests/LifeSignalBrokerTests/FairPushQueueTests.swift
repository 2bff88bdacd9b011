@testable import LifeSignalBroker
import LifeSignalProtocol
@testable import LifeSignalPush
import Testing

/// Which push FCM gets next, and what is dropped: the pure queue, driven with explicit times.
@Suite struct FairPushQueueTests {
    private func push(_ type: NotificationType, to userID: String, token: String = "t", from sender: String = "u_bob",
                      id: String) -> (PushMessage, PushTraits) {
        (PushMessage(userID: userID, deviceID: "d-\(token)", token: token, notificationID: id, body: [], createdAt: 0),
         PushTraits(type: type, relatedContactID: sender))
    }

    private func limits(capacity: Int = 10_000, perRecipient: Int = 64, sends: Int = 8, pingBurst: Int = 10)
        -> FairPushQueue.Limits {
        var limits = FairPushQueue.Limits()
        (limits.capacity, limits.perRecipient, limits.maxConcurrentSends, limits.pingBurst) =
            (capacity, perRecipient, sends, pingBurst)
        return limits
    }

    @discardableResult
    private func enqueue(_ queue: inout FairPushQueue, _ push: (PushMessage, PushTraits), at now: Duration = .zero)
        -> FairPushQueue.Admission {
        queue.enqueue(push.0, traits: push.1, now: now)
    }

    private func next(_ queue: inout FairPushQueue, at now: Duration) -> FairPushQueue.Ticket? { queue.next(now: now) }

    /// Takes every message due at `now`, in order, with as many sends as it allows.
    private func drain(_ queue: inout FairPushQueue, at now: Duration = .zero) -> [FairPushQueue.Ticket] {
        var tickets: [FairPushQueue.Ticket] = []
        while let ticket = queue.next(now: now) {
            tickets.append(ticket)
            _ = queue.finish(ticket, .answered(.sent), now: now, jitter: 0)
        }
        return tickets
    }

    @Test func aPingFloodFromOnePairCostsNoOneElse() {
        var queue = FairPushQueue(limits: limits(capacity: 40, pingBurst: 1_000))
        // Bob pings Alice 400 times; she has 32 devices with tokens.
        var admissions: [FairPushQueue.Admission: Int] = [:]
        for ping in 0..<400 {
            for device in 0..<32 {
                admissions[enqueue(&queue, push(.ping, to: "u_alice", token: "a\(device)", id: "n_\(ping)")), default: 0] += 1
            }
        }
        // One waiting ping per device: the rest were merged into them.
        #expect(queue.backlog == 32)
        #expect(admissions[.queued] == 32)
        #expect(admissions[.coalesced] == 399 * 32)
        // Carol's alert for Dave and Erin's check-in notice for Frank are taken, and go first.
        #expect(enqueue(&queue, push(.alert, to: "u_dave", from: "u_carol", id: "alert")) == .queued)
        #expect(enqueue(&queue, push(.checkIn, to: "u_frank", from: "u_erin", id: "check-in")) == .queued)
        let order = drain(&queue).map(\.message.notificationID)
        #expect(order.first == "alert")
        #expect(order.firstIndex(of: "check-in").map { $0 <= 2 } == true, "\(order.prefix(4))")
        #expect(order.count == 34)
    }

    @Test func safetyPushesAreNeverDroppedAndGoBeforeAnyOther() {
        var queue = FairPushQueue(limits: limits(capacity: 3, perRecipient: 2, sends: 100))
        for user in 0..<3 { enqueue(&queue, push(.checkIn, to: "u_\(user)", id: "c\(user)")) }
        #expect(enqueue(&queue, push(.checkIn, to: "u_9", id: "c9")) == .queuedDroppingAnother)
        for alert in 0..<50 {
            #expect(enqueue(&queue, push(alert % 2 == 0 ? .alert : .nonResponsive, to: "u_0", id: "a\(alert)")) == .queued)
        }
        #expect(enqueue(&queue, push(.alertCancelled, to: "u_1", id: "cancel")) == .queued)
        let order = drain(&queue).map(\.message.notificationID)
        #expect(order.count == 54)
        #expect(Set(order.prefix(51)) == Set((0..<50).map { "a\($0)" } + ["cancel"]))
        // Recipients take turns among safety pushes too: u_1's is not behind u_0's fifty.
        #expect(order.firstIndex(of: "cancel").map { $0 <= 1 } == true)
    }

    @Test func pastItsBoundsTheBusiestRecipientLosesItsOldest() {
        var queue = FairPushQueue(limits: limits(capacity: 4, perRecipient: 3))
        for index in 0..<3 { #expect(enqueue(&queue, push(.checkIn, to: "u_a", id: "a\(index)")) == .queued) }
        // Past its own bound: its oldest goes.
        #expect(enqueue(&queue, push(.checkIn, to: "u_a", id: "a3")) == .queuedDroppingAnother)
        #expect(enqueue(&queue, push(.checkIn, to: "u_b", id: "b0")) == .queued)
        // Full: another recipient's push takes the place of u_a's oldest; u_a's own is refused.
        #expect(enqueue(&queue, push(.checkIn, to: "u_c", id: "c0")) == .queuedDroppingAnother)
        #expect(enqueue(&queue, push(.checkIn, to: "u_a", id: "a4")) == .dropped)
        #expect(Set(drain(&queue).map(\.message.notificationID)) == ["a2", "a3", "b0", "c0"])
    }

    @Test func pingsFromOneSenderCollapsePerDeviceAndKeepToABudget() {
        var limits = limits(pingBurst: 2)
        limits.pingsPerMinute = 6  // one every 10 s after the burst
        var queue = FairPushQueue(limits: limits)
        for token in ["t1", "t2"] { #expect(enqueue(&queue, push(.ping, to: "u_alice", token: token, id: "n1")) == .queued) }
        // A newer ping replaces the one still waiting for each device, whatever the budget.
        for token in ["t1", "t2"] { #expect(enqueue(&queue, push(.ping, to: "u_alice", token: token, id: "n2")) == .coalesced) }
        #expect(drain(&queue).map(\.message.notificationID) == ["n2", "n2"])
        // The budget counts notifications, not devices: n3 is the second of the burst.
        for token in ["t1", "t2"] { #expect(enqueue(&queue, push(.ping, to: "u_alice", token: token, id: "n3")) == .queued) }
        #expect(drain(&queue).count == 2)
        for token in ["t1", "t2"] { #expect(enqueue(&queue, push(.ping, to: "u_alice", token: token, id: "n4")) == .throttled) }
        // Another sender has a budget of its own; and Bob's refills.
        #expect(enqueue(&queue, push(.ping, to: "u_alice", token: "t1", from: "u_carol", id: "n5")) == .queued)
        #expect(enqueue(&queue, push(.ping, to: "u_alice", token: "t1", id: "n6"), at: .seconds(11)) == .queued)
    }

    @Test func aFailedTryWaitsInTheQueueNotInASendSlot() throws {
        var queue = FairPushQueue(limits: limits(sends: 1))
        enqueue(&queue, push(.checkIn, to: "u_a", id: "slow"))
        enqueue(&queue, push(.checkIn, to: "u_b", id: "next"))
        let slow = try #require(next(&queue, at: .zero))
        #expect(next(&queue, at: .zero) == nil)  // the one slot is taken
        let decision = queue.finish(slow, .unreachable("timed out"), now: .seconds(10), jitter: 1)
        #expect(decision == .retry(at: .seconds(10) + .milliseconds(500)))
        #expect(next(&queue, at: .seconds(10))?.message.notificationID == "next")
        #expect(queue.nextDue(after: .seconds(10)) == .seconds(10) + .milliseconds(500))
    }

    @Test func fcmsRetryAfterRulesAreKept() throws {
        var queue = FairPushQueue(limits: limits())
        enqueue(&queue, push(.checkIn, to: "u_a", id: "n"))
        // 429 without Retry-After: a minute at least (FCM's rule), not half a second.
        var ticket = try #require(next(&queue, at: .zero))
        let first = queue.finish(ticket, .answered(.rateLimited(retryAfter: nil)), now: .zero, jitter: 0)
        #expect(first == .retry(at: .seconds(60)))
        #expect(next(&queue, at: .seconds(59)) == nil)
        // A Retry-After past a minute is honoured as given.
        ticket = try #require(next(&queue, at: .seconds(60)))
        #expect(ticket.attempt == 2)
        let second = queue.finish(ticket, .answered(.rateLimited(retryAfter: .seconds(300))), now: .seconds(60), jitter: 1)
        #expect(second == .retry(at: .seconds(360)))
        ticket = try #require(next(&queue, at: .seconds(360)))
        let third = queue.finish(ticket, .answered(.retry(retryAfter: .seconds(120))), now: .seconds(360), jitter: 1)
        #expect(third == .retry(at: .seconds(480)))
    }

    @Test func safetyPushesAreTriedUntilFCMAnswersAndOthersAreNot() throws {
        var queue = FairPushQueue(limits: limits())
        enqueue(&queue, push(.alert, to: "u_a", id: "alert"))
        enqueue(&queue, push(.checkIn, to: "u_b", id: "other"))
        var now = Duration.zero
        var decisions: [String: [FairPushQueue.Decision]] = [:]
        for _ in 0..<100 {
            guard let ticket = queue.next(now: now) else {
                let due = queue.nextDue(after: now)
                now = try #require(due)
                continue
            }
            decisions[ticket.message.notificationID, default: []]
                .append(queue.finish(ticket, .answered(.retry(retryAfter: nil)), now: now, jitter: 0.5))
        }
        #expect(decisions["other"]?.count == 5)
        #expect(decisions["other"]?.last == .gaveUp)
        #expect((decisions["alert"]?.count ?? 0) > 20)
        #expect(decisions["alert"]?.contains(.gaveUp) == false)
        // FCM answers at last: done.
        let due = queue.nextDue(after: now)
        let ticket = try #require(next(&queue, at: due ?? now))
        let last = queue.finish(ticket, .answered(.sent), now: due ?? now, jitter: 0)
        #expect(last == .done)
        #expect(queue.backlog == 0)
    }
}
