import Foundation
import LifeSignalProtocol

/// Typed streams of what an app shows (issue 27 item 4): the connection, the user, the contacts
/// and the newest notifications. Each starts with the current value, has as many consumers as
/// ask, yields only changes, and may be cancelled on its own.
extension LifeSignalClient {
    /// Everything the typed streams follow.
    final class Streams {
        let connection = ValueBroadcast<ConnectionState>(.idle)
        let user = ValueBroadcast<User>()
        let contacts = ValueBroadcast<[Contact]>()
        let notifications = ValueBroadcast<NotificationsView>()

        init(state: DeviceState?) {
            if let state { follow(state) }
        }

        func follow(_ state: DeviceState) {
            user.update(state.user)
            contacts.update(state.sortedContacts)
            notifications.update(NotificationsView(newest: state.notifications, unreadCount: state.unreadCount))
        }

        func finish() {
            connection.finish()
            user.finish()
            contacts.finish()
            notifications.finish()
        }
    }

    enum Kind: Sendable { case connection, user, contacts, notifications }

    public func connectionStates() -> AsyncStream<ConnectionState> { streams.connection.stream(onEnd: ending(.connection)) }

    /// The user's own document (once there is a state).
    public func userUpdates() -> AsyncStream<User> { streams.user.stream(onEnd: ending(.user)) }

    /// The contacts, by name.
    public func contactUpdates() -> AsyncStream<[Contact]> { streams.contacts.stream(onEnd: ending(.contacts)) }

    /// The newest notifications and the unread count.
    public func notificationUpdates() -> AsyncStream<NotificationsView> {
        streams.notifications.stream(onEnd: ending(.notifications))
    }

    /// What forgets a cancelled consumer of `kind`, on the actor.
    private nonisolated func ending(_ kind: Kind) -> @Sendable (UInt64) -> Void {
        { [weak self] id in Task { await self?.stopFollowing(kind, id) } }
    }

    private func stopFollowing(_ kind: Kind, _ id: UInt64) {
        switch kind {
        case .connection: streams.connection.forget(id)
        case .user: streams.user.forget(id)
        case .contacts: streams.contacts.forget(id)
        case .notifications: streams.notifications.forget(id)
        }
    }

    /// Every `ClientEvent` goes out here: on `events`, and into the typed streams.
    func publish(_ event: ClientEvent) {
        eventSink.yield(event)
        switch event {
        case .connected(let hello):
            streams.connection.update(.live(broker: hello.broker))
        case .snapshot, .event:
            if let state { streams.follow(state) }
            scheduleStateSave()
        case .disconnected(let error, let willReconnect):
            streams.connection.update(willReconnect ? .connecting : error.map(ConnectionState.offline) ?? .idle)
        case .reconnecting(let attempt, let delayMs, let error):
            let retryAt = Date().addingTimeInterval(Double(delayMs) / 1000)
            streams.connection.update(.waiting(attempt: attempt, retryAt: retryAt, error: error))
        }
    }
}
