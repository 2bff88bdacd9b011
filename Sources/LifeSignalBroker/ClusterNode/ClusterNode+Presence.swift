import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalUV
import Logging

/// This broker's presence rows, reconciled with the devices it really holds (issue 24): after a
/// write of them was lost (a device's goodbye during an outage, a hello that failed after its row
/// was written) at once, and every `presenceCheckEveryTicks` seconds anyway.
extension ClusterNode {
    static let presenceCheckEveryTicks = 30

    /// The devices whose rows this broker must keep: those connected here, and those saying hello
    /// now (whose rows are being written).
    var heldDevices: [DeviceKey] {
        let connected = feeds.flatMap { userID, feed in
            feed.connections.keys.map { DeviceKey(userID: userID, deviceID: $0) }
        }
        return Array(Set(connected).union(attaching.keys))
    }

    /// A write of presence was lost: reconcile at the next housekeeping tick. `offlineAt`: when
    /// the device of `key` left, so that what was skipped since is pushed.
    func presenceInDoubt(_ key: DeviceKey? = nil, offlineAt: Int64? = nil) {
        presenceNeedsCheck = true
        if let key, let offlineAt { offlineSince[key] = min(offlineSince[key] ?? offlineAt, offlineAt) }
    }

    /// A device's going offline could not be recorded, at a bounded rate.
    func logPresenceLost(_ error: any Error) {
        logThrottled(.warning, "a device went offline unrecorded: presence is reconciled once PostgreSQL answers",
                     ["lifesignal.error": "\(ClusterDatabase.reason(error))"])
    }

    func checkPresence() {
        guard presenceNeedsCheck || housekeepingTicks % Self.presenceCheckEveryTicks == 0 else { return }
        let (brokerID, held, since) = (brokerID, heldDevices, offlineSince)
        presenceNeedsCheck = false
        once(.presence, {
            try await $0.reconcilePresence(brokerID: brokerID, held: held, offlineSince: since, now: WallClock.nowMs())
        }, failed: { [self] in presenceNeedsCheck = true }, then: { [self] repair in
            for key in since.keys { offlineSince[key] = nil }
            guard !repair.removed.isEmpty else { return }
            logger.notice("presence reconciled: devices no longer here marked offline", metadata: [
                "lifesignal.devices": .stringConvertible(repair.removed.count), "lifesignal.pushes": .stringConvertible(repair.pushes.count),
            ])
            broker?.pushOutbox.deliver(repair.pushes)
        })
    }
}
