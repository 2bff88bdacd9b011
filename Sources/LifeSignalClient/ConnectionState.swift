import Foundation
import LifeSignalProtocol

/// Where a client's connection stands, as an app shows it (`LifeSignalClient.connectionStates()`).
public enum ConnectionState: Sendable, Equatable {
    /// Not connected, and not trying: before `connect()`, after `bye()` or `close()`.
    case idle
    /// An attempt is under way.
    case connecting
    /// Said hello and caught up; `broker` is the broker's id (v1.1), when it gives one.
    case live(broker: String?)
    /// The connection was lost or refused; attempt `attempt` starts at `retryAt`.
    case waiting(attempt: Int, retryAt: Date, error: LifeSignalClientError)
    /// Ended, and not retrying: a final refusal (`unauthenticated`, `revoked`, `account_deleted`,
    /// …), or a first connect that does not retry.
    case offline(LifeSignalClientError)
}

/// What the newest notifications look like to an app: as `DeviceState` keeps them.
public struct NotificationsView: Sendable, Equatable {
    /// Newest first, at most `DeviceState.notificationLimit`.
    public var newest: [LifeSignalProtocol.Notification]
    public var unreadCount: Int

    init(of state: DeviceState) {
        newest = state.notifications
        unreadCount = state.unreadCount
    }
}
