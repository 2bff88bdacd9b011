import LifeSignalProtocol

/// What an app's code asks of a client: written against this, its tests and previews run on
/// `InMemoryLifeSignalClient` and the app on `LifeSignalClient`.
public protocol LifeSignalClientProtocol: Actor {
    var state: DeviceState? { get }
    var isConnected: Bool { get }
    @discardableResult func connect() async throws -> HelloResult
    func close()

    func checkIn() async throws -> User
    func triggerAlert(message: String?) async throws -> String
    func cancelAlert() async throws
    @discardableResult func updateProfile(_ update: ProfileUpdate) async throws -> User
    func markNotificationRead(id: String) async throws
    func markAllNotificationsRead() async throws -> Int64

    @discardableResult func enqueue(_ command: DeviceCommand) throws -> PendingOperation
    var pendingOperations: [PendingOperation] { get }

    func connectionStates() -> AsyncStream<ConnectionState>
    func userUpdates() -> AsyncStream<User>
    func contactUpdates() -> AsyncStream<[Contact]>
    func notificationUpdates() -> AsyncStream<NotificationsView>
}

extension LifeSignalClient: LifeSignalClientProtocol {}
