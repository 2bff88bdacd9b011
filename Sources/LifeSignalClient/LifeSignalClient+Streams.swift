import Foundation
import LifeSignalProtocol

/// Typed streams of what an app shows (issue 27 item 4): the connection, the user, the contacts
/// and the newest notifications. Each starts with the current value, has as many consumers as
/// ask, yields only changes, and may be cancelled on its own.
extension LifeSignalClient {
    /// The typed streams' consumers. What they follow is derived from the client's `state`
    /// (and its connection state), not kept beside it.
    final class Streams {
        private(set) var connectionState = ConnectionState.idle
        let connection = ValueBroadcast<ConnectionState>()
        let user = ValueBroadcast<User>()
        let contacts = ValueBroadcast<[Contact]>()
        let notifications = ValueBroadcast<NotificationsView>()

        func setConnection(_ state: ConnectionState) {
            connectionState = state
            connection.update(state)
        }

        /// The state changed: its followers are told what changed for them.
        func follow(_ state: DeviceState) {
            user.update(state.user)
            contacts.update(state.sortedContacts)
            notifications.update(NotificationsView(of: state))
        }

        func finish() {
            connection.finish()
            user.finish()
            contacts.finish()
            notifications.finish()
        }
    }

    enum Kind: Sendable { case connection, user, contacts, notifications }

    public func connectionStates() -> AsyncStream<ConnectionState> {
        streams.connection.stream(startingWith: streams.connectionState, onEnd: ending(.connection))
    }

    /// The user's own document (once there is a state).
    public func userUpdates() -> AsyncStream<User> { streams.user.stream(startingWith: state?.user, onEnd: ending(.user)) }

    /// The contacts, by name.
    public func contactUpdates() -> AsyncStream<[Contact]> {
        streams.contacts.stream(startingWith: state?.sortedContacts, onEnd: ending(.contacts))
    }

    /// The newest notifications and the unread count.
    public func notificationUpdates() -> AsyncStream<NotificationsView> {
        streams.notifications.stream(startingWith: state.map(NotificationsView.init(of:)), onEnd: ending(.notifications))
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
            streams.setConnection(.live(broker: hello.broker))
        case .snapshot, .event:
            if let state { streams.follow(state) }
            scheduleStateSave()
        case .disconnected(let error, let willReconnect):
            streams.setConnection(willReconnect ? .connecting : error.map(ConnectionState.offline) ?? .idle)
        case .reconnecting(let attempt, let delayMs, let error):
            let retryAt = Date().addingTimeInterval(Double(delayMs) / 1000)
            streams.setConnection(.waiting(attempt: attempt, retryAt: retryAt, error: error))
        }
    }
}
