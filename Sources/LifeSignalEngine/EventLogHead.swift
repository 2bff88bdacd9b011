import LifeSignalProtocol
import LifeSignalPush

/// Where a user's event log stands: the last seq given out and the oldest event still kept. Both
/// stores' paths give events their seqs here, so an event's seq, its frame, the stored event and
/// the retention that follows it (`EventRetention`) are decided once.
public struct EventLogHead: Sendable, Equatable {
    public var lastSeq: Int64
    public var oldestRetained: Int64

    public init(lastSeq: Int64, oldestRetained: Int64) {
        self.lastSeq = lastSeq
        self.oldestRetained = oldestRetained
    }

    /// Gives the event the next seq and records it in `changes`; returns its frame, encoded once:
    /// devices are sent the frame, the store keeps the body inside it.
    package mutating func append(_ name: String, _ data: EventData, of userID: String, retention: Int,
                                 to changes: inout [StoreChange]) -> [UInt8] {
        let frame = Outbound.event(seq: lastSeq + 1, name: name, data: data)
        append(body: frame.dropFirst(4), of: userID, retention: retention, to: &changes)
        return frame
    }

    /// Records `body` as the user's next event, and the prune of what retention no longer keeps
    /// once a step's worth lies beyond it.
    package mutating func append(body: ArraySlice<UInt8>, of userID: String, retention: Int,
                                 to changes: inout [StoreChange]) {
        lastSeq += 1
        changes.append(.appendEvent(userID: userID, seq: lastSeq, body: body))
        if let through = EventRetention.pruneThrough(head: lastSeq, oldestRetained: oldestRetained, retention: retention) {
            changes.append(.pruneEvents(userID: userID, throughSeq: through))
            oldestRetained = through + 1
        }
    }
}

extension EventLogHead {
    /// Stores `notification` for the user (§5, §7): its row, its `notification.added` event, and
    /// a push to each device `PushSelection` picks of `devices`. Returns the event's frame and the
    /// pushes, for the push gateway once they have committed. An array, not a generic sequence:
    /// a generic of another module runs unspecialized, on every notification.
    package mutating func appendNotification(
        _ notification: Notification, of userID: String, retention: Int, devices: [DeviceRecord],
        isOnline: (String) -> Bool, preferences: Preferences, to changes: inout [StoreChange]
    ) -> (frame: [UInt8], pushes: [PushMessage]) {
        changes.append(.insertNotification(userID: userID, notification))
        let frame = append(EventName.notificationAdded, .notification(notification), of: userID, retention: retention,
                           to: &changes)
        let pushes = PushSelection.messages(for: notification, userID: userID, devices: devices, isOnline: isOnline,
                                            preferences: preferences)
        changes += pushes.map(StoreChange.recordPush)
        return (frame, pushes)
    }
}
