import Foundation
import LifeSignalClient
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// The hooks a phone app calls as it goes to the background and back, receives a push, or
/// changes network.
@Suite(.timeLimit(.minutes(20)))
struct AppLifecycleTests {
    static func client(_ registration: Registration, port: Int, device: String,
                       reconnect: ReconnectPolicy = ReconnectPolicy(initialDelayMs: 1, maxDelayMs: 50)) throws -> LifeSignalClient {
        try LifeSignalClient(configuration: ClientConfiguration(
            host: "127.0.0.1", port: port, userID: registration.user.id, token: registration.token, deviceID: device,
            reconnect: reconnect))
    }

    @Test func backgroundThenAPushThenForegroundCatchUpWithoutASnapshot() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let phone = try Self.client(alice, port: broker.port, device: "phone")
        let tablet = try Self.client(alice, port: broker.port, device: "tablet")
        defer {
            Task { await phone.close() }
            Task { await tablet.close() }
        }
        _ = try await phone.connect()
        _ = try await tablet.connect()

        await phone.didEnterBackground()
        #expect(await !phone.isConnected)
        // The broker sees the phone go once its bye's close has run (a turn of its loop later).
        var phoneOnline = true
        for _ in 0..<500 where phoneOnline {
            phoneOnline = try await tablet.listDevices().first { $0.device == "phone" }?.online ?? true
            if phoneOnline { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(!phoneOnline)

        _ = try await tablet.updateProfile(name: "Alice B")
        let pushed = try await phone.pushReceived()
        #expect(pushed?.user.name == "Alice B")
        #expect(await !phone.isConnected, "a push in the background connects only for the catch-up")

        _ = try await tablet.checkIn()
        let events = phone.events
        let hello = try await phone.willEnterForeground()
        let (phoneState, tabletSeq) = (await phone.state, await tablet.state?.lastSeq)
        #expect(phoneState?.user.lastCheckInAt != nil && hello.lastSeq == tabletSeq)
        // Each return resumed from the state it had: events, never a snapshot.
        await phone.close()
        var snapshots = 0
        for await event in events { if case .snapshot = event { snapshots += 1 } }
        #expect(snapshots == 1, "only the first connect's")
    }

    @Test func aChangedNetworkTriesAWaitingReconnectNow() async throws {
        let first = try TestBroker()
        let alice = try await LifeSignalClient.register(host: first.host, port: first.port, name: "Alice")
        // A backoff far longer than the test: only the hook can bring it back in time.
        let phone = try Self.client(alice, port: first.port, device: "phone",
                                    reconnect: ReconnectPolicy(initialDelayMs: 3_600_000, maxDelayMs: 3_600_000))
        defer { Task { await phone.close() } }
        _ = try await phone.connect()
        var states = await phone.connectionStates().makeAsyncIterator()
        first.stop()
        while let state = await states.next() {
            if case .waiting = state { break }
        }
        let second = try TestBroker(directory: first.directory) { $0.port = first.port }
        defer { second.stop() }
        await phone.networkPathChanged()
        while let state = await states.next() {
            if case .live = state { break }
        }
        #expect(await phone.isConnected)
    }
}
