import Foundation
import LifeSignalProtocol
import LifeSignalRules

/// A client with no broker, for an app's tests and previews: it starts from a `DeviceState`
/// and runs the user's own requests through the broker's rules (`LifeSignalRules`), applying the
/// events they make as a real client applies the broker's. What would reach other users
/// (a responder's notification) goes nowhere. `enqueue` runs the write at once while
/// "connected", and keeps it pending while not.
public actor InMemoryLifeSignalClient: LifeSignalClientProtocol {
    public private(set) var state: DeviceState?
    public private(set) var isConnected = false
    public private(set) var pendingOperations: [PendingOperation] = []
    private let streams: LifeSignalClient.Streams

    public init(state: DeviceState) {
        self.state = state
        streams = LifeSignalClient.Streams()
    }

    @discardableResult
    public func connect() async throws -> HelloResult {
        isConnected = true
        streams.setConnection(.live(broker: "in-memory"))
        let queued = pendingOperations
        pendingOperations = []
        for operation in queued { if let command = operation.command { _ = try? run(command) } }
        return HelloResult(session: "s_in_memory", user: try current().user, lastSeq: try current().lastSeq,
                           heartbeatMs: 30_000, maxFrameBytes: 65_536, serverTime: Self.now(),
                           broker: "in-memory", version: ProtocolVersion.current)
    }

    public func close() {
        isConnected = false
        streams.setConnection(.idle)
    }

    public func checkIn() async throws -> User {
        try reply(.checkIn).user ?? current().user
    }

    public func triggerAlert(message: String?) async throws -> String {
        guard case .alert(let id) = try reply(.alertTrigger(message: message)) else { throw Self.noAnswer }
        return id
    }

    public func cancelAlert() async throws { _ = try reply(.alertCancel) }

    @discardableResult
    public func updateProfile(_ update: ProfileUpdate) async throws -> User {
        try reply(.profileUpdate(update)).user ?? current().user
    }

    public func markNotificationRead(id: String) async throws { _ = try reply(.notificationsRead(id: id)) }

    public func markAllNotificationsRead() async throws -> Int64 {
        guard case .readAll(let count) = try reply(.notificationsReadAll) else { throw Self.noAnswer }
        return count
    }

    @discardableResult
    public func enqueue(_ command: DeviceCommand) throws -> PendingOperation {
        guard command.keepsOutcome else { throw LifeSignalClientError.notQueueable(command.op) }
        let operation = PendingOperation(command: command)
        if isConnected { _ = try? run(command) } else { pendingOperations.append(operation) }
        return operation
    }

    public func connectionStates() -> AsyncStream<ConnectionState> {
        streams.connection.stream(startingWith: streams.connectionState) { _ in }
    }
    public func userUpdates() -> AsyncStream<User> { streams.user.stream(startingWith: state?.user) { _ in } }
    public func contactUpdates() -> AsyncStream<[Contact]> {
        streams.contacts.stream(startingWith: state?.sortedContacts) { _ in }
    }
    public func notificationUpdates() -> AsyncStream<NotificationsView> {
        streams.notifications.stream(startingWith: state.map(NotificationsView.init(of:))) { _ in }
    }

    // MARK: - Running the rules

    private func reply(_ command: DeviceCommand) throws -> Reply {
        guard isConnected else { throw LifeSignalClientError.notConnected }
        return try run(command)
    }

    /// `command`'s rule over the user's account alone; its events for the user applied in order.
    private func run(_ command: DeviceCommand) throws -> Reply {
        var device = try current()
        let userID = device.user.id
        var step = Step(now: Self.now(), accounts: [Account(user: device.user, contacts: [:])], ids: LocalIDs())
        let reply: Reply
        do throws(ProtocolError) {
            reply = try step.run { (step) throws(ProtocolError) -> Reply in
                try Self.rule(command, of: userID, notifications: device.notifications, in: &step)
            }
        } catch {
            throw LifeSignalClientError.server(error)
        }
        for case .event(userID, let name, let data) in step.effects {
            try device.apply(seq: device.lastSeq + 1, name: name, data: data.json)
        }
        state = device
        streams.follow(device)
        return reply
    }

    private static func rule(_ command: DeviceCommand, of userID: String, notifications: [LifeSignalProtocol.Notification],
                             in step: inout Step) throws(ProtocolError) -> Reply {
        switch command {
        case .checkIn: return try SafetyRules.checkIn(by: userID, in: &step)
        case .alertTrigger(let message): return try SafetyRules.triggerAlert(by: userID, message: message, in: &step)
        case .alertCancel: return try SafetyRules.cancelAlert(by: userID, in: &step)
        case .profileUpdate(let update):
            return try ProfileRules.update(by: userID, update, minCheckInIntervalSec: 60, in: &step)
        case .notificationsRead(let id):
            return try NotificationRules.read(notifications.first { $0.id == id }, of: userID, in: &step)
        case .notificationsReadAll:
            return NotificationRules.readAll(unread: notifications.filter { !$0.isRead }.count, of: userID, in: &step)
        default:
            throw ProtocolError(.internal, "\(command.op) needs a broker")
        }
    }

    private func current() throws -> DeviceState {
        guard let state else { throw LifeSignalClientError.notConnected }
        return state
    }

    private static let noAnswer = LifeSignalClientError.protocolViolation("the rule gave another answer")

    private static func now() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded()) }
}

/// Ids for what the in-memory client makes: unique, and shaped like the broker's.
private struct LocalIDs: IDSource {
    func newID(prefix: String, nowMs: Int64) -> String { "\(prefix)_" + UUID().uuidString.lowercased() }
    func newQRCode() -> String { String(UUID().uuidString.replacingOccurrences(of: "-", with: "").prefix(12)) }
}
