import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules
import LifeSignalStoreSQLite
import LifeSignalUV

/// One loaded user: their documents, devices, event log position and online connections.
///
/// Runs on the broker's loop (`LoopIsolated`), so frames enter it synchronously with `onLoop`: no
/// Task and no thread hop per frame (ARCHITECTURE.md, "Actors on the loop"). Its state is the hot
/// copy of what the store holds; every change goes through a `Mutation` and is committed before
/// anyone hears of it.
actor UserSession: LoopIsolated {
    nonisolated let loop: EventLoop
    nonisolated let userID: String

    /// Unowned: the broker holds every session and outlives them (`BrokerServer.run`); a strong
    /// reference made a cycle that leaked the sessions still busy when the loop shut down.
    unowned let broker: Broker
    /// The broker's, not a copy: a session per online user holds only what is its own.
    var configuration: BrokerConfiguration { broker.configuration }
    /// The user's document and their side of each relationship: what the rules read and change.
    var account: Account
    var user: User { account.user }
    /// Contacts by the other user's id.
    var contacts: [String: ContactRecord] { account.contacts }
    /// Each contact's own document as the store had it when this user was loaded, or as the
    /// contact's session left it when it was unloaded since (`leaveMirrorWithContacts`). Only a
    /// fallback: a view is made from the contact's live document while it is loaded (`view(of:)`).
    var lastKnown: [String: ContactMirror]
    /// Nil when the stored hash is malformed: then no token matches.
    let tokenHash: TokenHash?
    /// Each linked device's own credential (§12), by device id.
    var deviceCredentials: [String: DeviceCredential]
    /// Link codes a `signin` of this session spent (or is spending): a second sign-in with one is
    /// refused here, not by its commit failing, which would reload the user.
    var spentLinkCodes: Set<String> = []
    /// Set when a commit failed: memory may be ahead of the store, so the session is reloaded.
    var isStale = false
    /// Set when a step erased the account (`account.delete`): the session takes no request any
    /// more and leaves once its devices are told (`UserSession+Erasure`).
    var isErased = false
    var devices: DeviceTable<DeviceRecord>
    var online = DeviceTable<OnlineDevice>()
    /// The highest seq assigned (events above the last committed one are on their way to the
    /// store) and the oldest event kept.
    var eventLog: EventLogHead
    var lastSeq: Int64 { eventLog.lastSeq }
    /// Commits in flight that touch this user; the session stays loaded until they finish.
    var pendingCommits: Int32 = 0
    /// Requests being prepared that need this session loaded when their rules run.
    var pins: Int32 = 0
    var notifications: NotificationWindow
    /// Notifications older than the window that a request has read from the store since: their
    /// state here is the current one (nil: deleted), whatever an earlier read still in flight says.
    var olderNotifications: [String: Notification?] = [:]
    /// When `notifications.readAll` last ran: anything stored before then is read. `Int64.min`
    /// (never) rather than an optional, whose flag would take a word of its own here.
    var readAllCutoff = Int64.min
    /// The newest committed events, for catch-ups served from memory.
    var recentEvents = RecentEvents()
    /// The `opId`s whose outcomes are kept (§12; the answers are in the store).
    var keptOperations: KeptOperations

    init(stored: StoredUser, broker: Broker, loop: EventLoop) {
        self.loop = loop
        self.broker = broker
        userID = stored.user.id
        account = Account(user: stored.user, contacts: Dictionary(
            uniqueKeysWithValues: stored.contacts.map { ($0.record.contactID, $0.record) }))
        lastKnown = Dictionary(uniqueKeysWithValues: stored.contacts.map { ($0.record.contactID, $0.mirror) })
        tokenHash = TokenHash(stored.tokenHash)
        deviceCredentials = Dictionary(stored.deviceCredentials.map { ($0.key.deviceID, $0) },
                                       uniquingKeysWith: { first, _ in first })
        devices = DeviceTable(stored.devices)
        eventLog = EventLogHead(lastSeq: stored.lastSeq, oldestRetained: stored.oldestRetainedSeq)
        notifications = NotificationWindow(
            newest: stored.recentNotifications,
            ledger: NotificationLedger(limit: broker.configuration.notificationHistory, stored: stored.notificationLedger))
        keptOperations = KeptOperations(stored.keptOperations)
    }

    var isIdle: Bool { online.isEmpty && pendingCommits == 0 && pins == 0 }

    /// Keeps the session loaded until the matching `unpin()`: something is about to use it.
    func pin() { pins += 1 }

    func unpin() {
        pins -= 1
        unloadIfIdle()
    }

    /// Unloads the session once no device, commit or pin needs it any more.
    func unloadIfIdle() {
        if isIdle { broker.onLoop { $0.evictIfIdle(self) } }
    }

    /// Assigns the next seq, logs the event durably in `mutation`, and queues its delivery.
    func emit(_ name: String, _ data: EventData, into mutation: inout Mutation) {
        let frame = eventLog.append(name, data, of: userID, retention: configuration.eventRetention,
                                    to: &mutation.changes)
        queueDelivery(of: frame, into: &mutation)
    }

    /// The frame of the event just logged (`lastSeq`) goes to the devices once `mutation` commits.
    func queueDelivery(of frame: [UInt8], into mutation: inout Mutation) {
        mutation.deliveries.append(.init(session: self, seq: lastSeq, frame: frame))
        join(&mutation)
    }

    /// This user's state changes with `mutation`: the session stays loaded until its commit ends
    /// (`commitFinished`), and is made stale if it fails.
    func join(_ mutation: inout Mutation) {
        if mutation.touch(self) { pendingCommits += 1 }
    }

    /// Sends a committed event to every online device that has not had it through its catch-up.
    func deliver(seq: Int64, frame: [UInt8]) {
        recentEvents.append(seq: seq, frame: frame)
        let revoked = DeviceRevocation.revokedDevice(inEventFrame: frame)
        for device in online { device.connection.sendEvent(seq: seq, frame: frame, revoking: revoked) }
    }

    /// Every device this user has, as `devices.list` shows them.
    var deviceInfos: [DeviceInfo] {
        DeviceInfo.listing(devices.values, credentials: deviceCredentials.values, online: Set(online.map(\.deviceID)))
    }

    /// The push token each device holds, by device id.
    var pushTokens: [String: String] { DeviceRecord.pushTokens(of: devices) }
}
