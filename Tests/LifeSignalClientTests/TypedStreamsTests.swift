import Foundation
import LifeSignalClient
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// The typed streams an app's views follow: each starts with the current value, has as many
/// consumers as ask, yields changes only, and is cancelled on its own.
@Suite(.timeLimit(.minutes(20)))
struct TypedStreamsTests {
    static func client(_ registration: Registration, port: Int, device: String = "phone") throws -> LifeSignalClient {
        try LifeSignalClient(configuration: ClientConfiguration(
            host: "127.0.0.1", port: port, userID: registration.user.id, token: registration.token, deviceID: device,
            reconnect: ReconnectPolicy(initialDelayMs: 1, maxDelayMs: 50)))
    }

    @Test func contactsAndNotificationsReachEveryConsumerCurrentValueFirst() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let bob = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Bob")
        let phone = try Self.client(alice, port: broker.port)
        defer { Task { await phone.close() } }
        _ = try await phone.connect()

        var first = await phone.contactUpdates().makeAsyncIterator()
        var second = await phone.contactUpdates().makeAsyncIterator()
        #expect(await first.next() == [])
        #expect(await second.next() == [], "the current value, for each consumer")
        var notifications = await phone.notificationUpdates().makeAsyncIterator()
        #expect(await notifications.next()?.unreadCount == 0)

        let bobsPhone = try Self.client(bob, port: broker.port)
        defer { Task { await bobsPhone.close() } }
        _ = try await bobsPhone.connect()
        _ = try await bobsPhone.addContact(qrCode: alice.user.qrCode, isResponder: false, isDependent: true)
        #expect(await first.next()?.map(\.name) == ["Bob"])
        #expect(await second.next()?.map(\.name) == ["Bob"])
        let added = await notifications.next()
        #expect(added?.unreadCount == 1 && added?.newest.first?.type == .added)

        // A consumer that stops leaves the others be.
        let stopped = Task { for await _ in await phone.userUpdates() {} }
        stopped.cancel()
        var user = await phone.userUpdates().makeAsyncIterator()
        #expect(await user.next()?.name == "Alice")
        _ = try await phone.updateProfile(name: "Alice B")
        #expect(await user.next()?.name == "Alice B")
    }

    @Test func theConnectionStateFollowsALostBrokerAndItsReturn() async throws {
        let first = try TestBroker()
        let alice = try await LifeSignalClient.register(host: first.host, port: first.port, name: "Alice")
        let phone = try Self.client(alice, port: first.port)
        defer { Task { await phone.close() } }
        var states = await phone.connectionStates().makeAsyncIterator()
        #expect(await states.next() == .idle)
        _ = try await phone.connect()
        var seen: [String] = []
        while let state = await states.next() {
            seen.append(Self.name(state))
            if case .live = state { break }
        }
        #expect(seen.last == "live" && seen.dropLast().allSatisfy { $0 == "connecting" }, "\(seen)")

        first.stop()
        var waited = false
        while let state = await states.next() {
            if case .waiting(_, _, let error) = state {
                waited = true
                #expect(error.code == "connection_lost" || error.code == "connection_failed")
                break
            }
        }
        #expect(waited)
        let second = try TestBroker(directory: first.directory) { $0.port = first.port }
        defer { second.stop() }
        while let state = await states.next() {
            if case .live = state { break }
        }
        await phone.close()
        var last: ConnectionState?
        while let state = await states.next() { last = state }
        #expect(last == .idle, "close() ends every stream, idle last")
    }

    static func name(_ state: ConnectionState) -> String {
        switch state {
        case .idle: "idle"
        case .connecting: "connecting"
        case .live: "live"
        case .waiting: "waiting"
        case .offline: "offline"
        }
    }
}
