import LifeSignalProtocol
import LifeSignalStoreSQLite
import LifeSignalUV

extension Broker {
    /// Creates the scheduler and loads every pending deadline from the store; those that
    /// passed while the broker was down fire at once (§8).
    func startDeadlines() throws {
        let scheduler = try DeadlineScheduler(loop: loop) { [unowned self] userID, deadline in
            onLoop { $0.deadlineMissed(userID, deadline) }
        }
        guard let serving else { return scheduler.close() }
        serving.deadlines = scheduler
        loadPendingDeadlines()
    }

    /// Schedules every pending deadline the store has. A store that cannot be read now is read
    /// again a second later, until it can: no missed check-in is left unscheduled.
    func loadPendingDeadlines() {
        let started = loop.monotonicNowMs()
        submit(StoreWrite(changes: [], query: .pendingDeadlines)) { [self] result in
            onLoop { broker in
                guard case .success(let written) = result, case .deadlines(let pending)? = written.queryResult else {
                    return broker.retryAfterStoreFailure(.loadDeadlines)
                }
                broker.deadlines?.scheduleAll(pending)
                broker.logger.info("deadlines scheduled", metadata: [
                    "lifesignal.count": .stringConvertible(pending.count),
                    "lifesignal.ms": .stringConvertible(broker.loop.monotonicNowMs() - started),
                ])
            }
        }
    }

    /// A deadline passed: the user and their responders are loaded, then the user is marked
    /// non-responsive once (§8). A check-in that came first wins. If the store cannot load them,
    /// the deadline is tried again, so a missed check-in is never dropped.
    func deadlineMissed(_ userID: String, _ deadline: Int64) {
        withSessions([userID]) { [self] loaded in
            guard case .success(let loaded) = loaded else {
                return onLoop { $0.retryAfterStoreFailure(.missedDeadline(userID: userID, deadline: deadline)) }
            }
            guard let session = loaded[userID] else { return }
            let responders = session.onLoop { session in
                session.pin()
                return session.responderIDs
            }
            onLoop { broker in
                broker.withSessions(responders) { respondersLoaded in
                    session.onLoop { session in
                        if case .success = respondersLoaded {
                            session.markNonResponsive(missing: deadline)
                        } else {
                            let retry = StoreRetry.missedDeadline(userID: userID, deadline: deadline)
                            broker.onLoop { $0.retryAfterStoreFailure(retry) }
                        }
                        session.unpin()
                    }
                }
            }
        }
    }

    /// Keeps the scheduler in step with a user's document.
    func deadlineChanged(for user: User) {
        deadlines?.schedule(user.id, at: user.isNonResponsive ? nil : user.checkInDeadline)
    }
}

extension Broker {
    /// Counts a deadline fired, by the embedded scheduler or a cluster's scan, and logs it at info:
    /// how late it fired says whether the broker keeps up (a scan runs each second; more means trouble).
    func deadlineFired(userID: String, deadline: Int64, now: Int64) {
        counters.deadlinesFired.increment()
        logger.info("deadline fired", metadata: [
            "lifesignal.user": "\(userID)", "lifesignal.late_ms": .stringConvertible(max(0, now - deadline)),
        ])
    }
}
