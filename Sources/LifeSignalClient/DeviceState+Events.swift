import LifeSignalProtocol

extension DeviceState {
    /// Applies one event (PROTOCOL.md §6). The state is unchanged when this throws.
    ///
    /// Events this version does not know advance `lastSeq` and change nothing else: the protocol
    /// may add events, and the seq must still line up.
    /// - Throws: `.sequenceGap` unless `seq == lastSeq + 1`; `.protocolViolation` for a known event
    ///   whose data does not parse.
    public mutating func apply(seq: Int64, name: String, data: JSONValue) throws(LifeSignalClientError) {
        guard seq == lastSeq + 1 else { throw .sequenceGap(expected: lastSeq + 1, received: seq) }
        do {
            try applyData(name: name, data: data)
        } catch {
            throw .protocolViolation("event \(seq) '\(name)': \(error.message)")
        }
        lastSeq = seq
    }

    private mutating func applyData(name: String, data: JSONValue) throws(ProtocolError) {
        switch try Event(name: name, data: data) {
        case .userUpdated(let user):
            self.user = user
        case .contactUpdated(let contact):
            contacts[contact.id] = contact
        case .contactRemoved(let contactID):
            contacts[contactID] = nil
        case .notificationAdded(let notification):
            added(notification)
        case .notificationUpdated(let notification):
            updated(notification)
        case .notificationDeleted(let id):
            deleted(id: id)
        case .notificationsReadAll:
            for index in notifications.indices { notifications[index].isRead = true }
            unreadCount = 0
        case .devicesChanged, .unknown:
            break  // the user's devices are not part of the synced state (`devices.list` reads them)
        }
    }

    private mutating func added(_ notification: LifeSignalProtocol.Notification) {
        if let index = notifications.firstIndex(where: { $0.id == notification.id }) {
            // Not expected (ids are new), but a replay must not count it twice.
            updated(notification, at: index)
        } else {
            notifications.insert(notification, at: 0)
            if !notification.isRead { unreadCount += 1 }
            // Keep what a fresh snapshot would hold, so every device of the user ends equal.
            if notifications.count > Self.notificationLimit { notifications.removeLast() }
        }
    }

    private mutating func updated(_ notification: LifeSignalProtocol.Notification) {
        if let index = notifications.firstIndex(where: { $0.id == notification.id }) {
            updated(notification, at: index)
        } else if notification.isRead {
            // Outside the snapshot's window: the broker sends this only when it turns read (§5).
            unreadCount = max(0, unreadCount - 1)
        }
    }

    private mutating func updated(_ notification: LifeSignalProtocol.Notification, at index: Int) {
        let wasUnread = !notifications[index].isRead
        notifications[index] = notification
        unreadCount = max(0, unreadCount + (notification.isRead ? 0 : 1) - (wasUnread ? 1 : 0))
    }

    private mutating func deleted(id: String) {
        // One outside the snapshot's window leaves the count as is: whether it was unread is unknown.
        guard let index = notifications.firstIndex(where: { $0.id == id }) else { return }
        if !notifications[index].isRead { unreadCount = max(0, unreadCount - 1) }
        notifications.remove(at: index)
    }

}
