import CoreMetrics
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalPush

extension ClusterNode {
    /// What a step committed: its events to this broker's devices now, a hint to the other
    /// brokers soon, its pushes to the gateway.
    func publish(_ events: [CommittedEvent], pushes: [PushMessage], notifications: Int) {
        broker?.counters.written(events: events.count, notifications: notifications)
        var byUser: [String: [CommittedEvent]] = [:]
        for event in events { byUser[event.userID, default: []].append(event) }
        for (userID, userEvents) in byUser {
            let sorted = userEvents.sorted { $0.seq < $1.seq }
            feeds[userID]?.offer(sorted)
            pendingHints[userID] = max(pendingHints[userID] ?? 0, sorted.last!.seq)
        }
        if !pendingHints.isEmpty { scheduleHints() }
        broker?.pushOutbox.deliver(pushes)
    }

    /// Hints leave in one batch per few milliseconds, after the commits they name (ARCHITECTURE.md,
    /// "The cluster").
    private func scheduleHints() {
        guard !hintsScheduled, let timer = hintTimer else { return }
        hintsScheduled = true
        timer.start(afterMs: Self.hintDelayMs) { [self] in sendHints() }
    }

    static let hintDelayMs: UInt64 = 2

    private func sendHints() {
        hintsScheduled = false
        let payloads = ClusterHints.payloads(pendingHints)
        pendingHints = [:]
        run({ executor in
            for payload in payloads { try await executor.notify(payload) }
        }, then: { [logger] result in
            // Lost hints are made up by every broker's head check within a second.
            if case .failure(let error) = result {
                logger.debug("cluster hint not sent", metadata: ["lifesignal.error": "\(error)"])
            }
        })
    }

    /// A hint from any broker (this one's too): read the log of each named user with devices here.
    func hinted(_ payload: String) {
        if let (userID, deviceID, holder) = ClusterHints.parseReplaced(payload) {
            // The device said hello to another broker: if this one held it, its connection is the old one.
            guard holder == brokerID, let connection = feeds[userID]?.connections[deviceID] else { return }
            connection.cut(.replaced, ProtocolError(.replaced, "device '\(deviceID)' connected again"))
            return
        }
        if let userID = ClusterHints.parseDeleted(payload) { return closeDeletedAccount(userID) }
        for (userID, seq) in ClusterHints.parse(payload) { feeds[userID]?.want(seq) }
    }

    /// Listens for hints on a connection of the pool for as long as the broker runs, and listens
    /// again after losing it (the head check covers the gap).
    func startListening() {
        let (executor, loop, logger) = (self.executor, self.loop, self.logger)
        let received = Counter(label: MetricName.notifiesReceived)
        listening = Task { [weak self] in
            let node = self
            while !Task.isCancelled {
                do {
                    try await executor.database.client.withConnection { connection in
                        try await connection.listen(on: ClusterHints.channel) { notifications in
                            for try await notification in notifications {
                                let payload = notification.payload
                                received.increment()
                                loop.execute { node?.hinted(payload) }
                            }
                        }
                    }
                } catch {
                    if Task.isCancelled { return }
                    logger.debug("cluster hint listener lost", metadata: ["lifesignal.error": "\(error)"])
                }
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// The feed of a user with a device here, made when the first one attaches.
    func feed(of userID: String, startingAt head: Int64) -> UserFeed {
        if let feed = feeds[userID] { return feed }
        let feed = UserFeed(userID: userID, delivered: head, logger: logger) { [self] after, completion in
            readEvents(of: userID, after: after) { [self] result in
                completion(result)
                releaseFeedIfIdle(userID)
            }
        }
        feeds[userID] = feed
        return feed
    }

    /// Reads the log of `userID` after `after`, together with the other feeds' reads waiting then:
    /// one query for all of them, so a burst of hints costs a round trip, not one per user.
    func readEvents(of userID: String, after: Int64,
                    completion: @escaping @Sendable (Result<[(seq: Int64, body: String)], any Error>) -> Void) {
        pendingReads[userID] = (after, completion)
        startReads()
    }

    private func startReads() {
        guard readsInFlight < Self.maxReadsInFlight, !pendingReads.isEmpty else { return }
        let reads = pendingReads
        pendingReads = [:]
        readsInFlight += 1
        run({ try await $0.events(after: reads.mapValues(\.after)) }, then: { [self] result in
            readsInFlight -= 1
            for (userID, read) in reads { read.completion(result.map { $0[userID] ?? [] }) }
            startReads()
        })
    }

    static let maxReadsInFlight = 2

    /// Drops a feed nothing needs any more.
    func releaseFeedIfIdle(_ userID: String) {
        if let feed = feeds[userID], feed.isIdle { feeds[userID] = nil }
    }
}
