import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalUV
import Logging

/// What every broker of a cluster does each second (ARCHITECTURE.md, "The cluster").
enum HousekeepingTask: Hashable {
    /// Fire the missed check-ins that are due, once across the cluster.
    case deadlines
    /// Compare each local user's head seq with what was delivered: hints may be lost.
    case heads
    /// Say this broker is alive, so its presence rows count (every few seconds).
    case heartbeat
    /// Make this broker's presence rows the devices it holds (ClusterNode+Presence).
    case presence
}

extension ClusterNode {
    static let heartbeatEveryTicks = 5

    func startHousekeeping() throws {
        let timer = try Timer(loop: loop)
        timer.unref()
        timer.start(afterMs: 1_000, repeatMs: 1_000) { [self] in tick() }
        housekeepingTimer = timer
    }

    private func tick() {
        housekeepingTicks += 1
        fireDueDeadlines()
        checkHeads()
        checkPresence()
        if housekeepingTicks % Self.heartbeatEveryTicks == 0 {
            let brokerID = self.brokerID
            once(.heartbeat, { try await $0.heartbeat(brokerID: brokerID) }, then: { _ in })
        }
    }

    private func fireDueDeadlines() {
        once(.deadlines, { try await $0.fireDue(now: WallClock.nowMs()) }, then: { [self] scan in
            logFailedDeadlines(scan.failed)
            for deadline in scan.fired {
                publish(deadline.events, pushes: deadline.pushes, notifications: deadline.notifications)
                if deadline.result {
                    broker?.deadlineFired(userID: deadline.userID, deadline: deadline.deadline, now: WallClock.nowMs())
                }
            }
        })
    }

    /// Users whose missed check-in could not be marked, by name and why, at a bounded rate: the
    /// next scan tries them again.
    private func logFailedDeadlines(_ failed: [(userID: String, error: String)]) {
        guard let first = failed.first else { return }
        logThrottled(.error, "missed check-ins not marked; tried again at the next scan", [
            "lifesignal.users": "\(failed.map(\.userID).joined(separator: ","))", "lifesignal.error": "\(first.error)",
        ])
    }

    private func checkHeads() {
        let userIDs = Array(feeds.keys)
        guard !userIDs.isEmpty else { return }
        once(.heads, { try await $0.heads(of: userIDs) }, then: { [self] heads in
            for (userID, seq) in heads { feeds[userID]?.want(seq) }
            // A user with a device here has a row, unless their account was deleted since (its
            // notice lost).
            for userID in userIDs where heads[userID] == nil { closeDeletedAccount(userID) }
        })
    }

    /// Runs `task` unless it is still under way from an earlier tick; failures are logged once
    /// per tick at debug (the database may be gone for a while; requests say so themselves).
    func once<T: Sendable>(_ task: HousekeepingTask,
                           _ work: @escaping @Sendable (ClusterExecutor) async throws -> T,
                           failed: @escaping @Sendable () -> Void = {},
                           then: @escaping @Sendable (T) -> Void) {
        guard housekeepingUnderWay.insert(task).inserted else { return }
        run(work, then: { [self] result in
            housekeepingUnderWay.remove(task)
            switch result {
            case .success(let value):
                if !isDatabaseReachable {
                    isDatabaseReachable = true
                    logger.notice("PostgreSQL reachable again")
                }
                then(value)
            case .failure(let error):
                failed()
                // Writes of presence may have been lost meanwhile.
                presenceNeedsCheck = true
                if isDatabaseReachable {
                    isDatabaseReachable = false
                    logger.warning("PostgreSQL unreachable: requests that need it are answered internal",
                                   metadata: ["lifesignal.error": "\(error)"])
                }
            }
        })
    }
}
