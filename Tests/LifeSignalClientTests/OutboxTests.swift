import Foundation
import LifeSignalClient
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// PROTOCOL §12 through the client library: writes queued while the broker is down are sent once
/// it is back, in order, and each acts once, also when a client that was cut off mid-replay (its
/// answers sent but not saved) sends them again.
@Suite(.timeLimit(.minutes(20)))
struct OutboxTests {
    /// Alice (dependent) and Bob, her responder, on a broker in `directory`.
    struct Cast {
        let alice: Registration
        let bob: Registration
    }

    static func cast(on broker: TestBroker) async throws -> Cast {
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let bob = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Bob")
        let phone = try client(alice, port: broker.port)
        _ = try await phone.connect()
        _ = try await phone.addContact(qrCode: bob.user.qrCode, isResponder: true, isDependent: false)
        await phone.close()
        return Cast(alice: alice, bob: bob)
    }

    static func client(_ registration: Registration, port: Int, device: String = "phone",
                       outbox: (any OutboxStorage)? = nil) throws -> LifeSignalClient {
        var configuration = ClientConfiguration(
            host: "127.0.0.1", port: port, userID: registration.user.id, token: registration.token, deviceID: device,
            reconnect: ReconnectPolicy(initialDelayMs: 1, maxDelayMs: 50, retriesFirstConnect: true))
        configuration.outbox = outbox
        return try LifeSignalClient(configuration: configuration)
    }

    /// Waits until the client's outbox is empty.
    static func drained(_ client: LifeSignalClient) async {
        for await pending in await client.pendingOperationUpdates() where pending.isEmpty { return }
    }

    /// Alert, cancel, alert, …: each acts on what the one before left, so one run twice shows.
    static func write(_ index: Int) -> DeviceCommand {
        index.isMultiple(of: 2) ? .alertTrigger(message: "fell \(index)") : .alertCancel
    }

    /// How many alert and alert-cancelled notifications Bob has.
    static func alerts(seenBy bob: Registration, port: Int) async throws -> [NotificationType: Int] {
        let tablet = try client(bob, port: port, device: "tablet")
        defer { Task { await tablet.close() } }
        _ = try await tablet.connect()
        let alerts = try await tablet.listNotifications(limit: 100).notifications.map(\.type)
            .filter { $0 == .alert || $0 == .alertCancelled }
        return Dictionary(grouping: alerts, by: { $0 }).mapValues(\.count)
    }

    @Test func writesQueuedWhileTheBrokerIsDownActOnceWhenItIsBack() async throws {
        let first = try TestBroker()
        let cast = try await Self.cast(on: first)
        let port = first.port
        first.stop()

        let file = FileManager.default.temporaryDirectory.appendingPathComponent("outbox-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: file) }
        let phone = try Self.client(cast.alice, port: port, outbox: FileOutboxStorage(path: file))
        for index in 0..<20 { try await phone.enqueue(Self.write(index)) }
        #expect(await phone.pendingOperations.count == 20)
        // Saved as they were queued: another client on the same file has them too.
        let queued = try FileOutboxStorage(path: file).load()
        #expect(queued.map(\.id) == (await phone.pendingOperations).map(\.id))
        #expect(Set(queued.map(\.id)).count == 20 && queued.map(\.command) == (0..<20).map(Self.write))

        let second = try TestBroker(directory: first.directory) { $0.port = port }
        defer { second.stop() }
        var outcomes = await phone.operationOutcomes().makeAsyncIterator()
        let connecting = Task { try await phone.connect() }
        var answered: [String] = []
        while answered.count < 20, let outcome = await outcomes.next() {
            if case .success = outcome.result { answered.append(outcome.operation.id) }
        }
        _ = try await connecting.value
        #expect(answered == queued.map(\.id), "in the order they were queued")
        await Self.drained(phone)
        #expect(try FileOutboxStorage(path: file).load().isEmpty)
        #expect(try await Self.alerts(seenBy: cast.bob, port: port) == [.alert: 10, .alertCancelled: 10])

        // A client cut off after sending five of them (answered, but not yet saved as answered)
        // sends them again with three new ones: the five are answered from what the broker kept.
        let replayed = Array(queued.prefix(5))
        let tablet = try Self.client(cast.alice, port: port, device: "tablet",
                                     outbox: InMemoryOutboxStorage(replayed))
        #expect(await tablet.pendingOperations == replayed)
        for index in 6..<9 { try await tablet.enqueue(Self.write(index)) }
        _ = try await tablet.connect()
        await Self.drained(tablet)
        #expect(try await Self.alerts(seenBy: cast.bob, port: port) == [.alert: 12, .alertCancelled: 11])
        await phone.close()
        await tablet.close()
    }

    @Test func aRefusedWriteLeavesTheOutboxWithItsErrorAndReadsAreNotQueued() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let cast = try await Self.cast(on: broker)
        let phone = try Self.client(cast.alice, port: broker.port, outbox: InMemoryOutboxStorage())
        defer { Task { await phone.close() } }
        _ = try await phone.connect()
        var outcomes = await phone.operationOutcomes().makeAsyncIterator()
        try await phone.enqueue(.pingClear(contactID: "u_nobody"))
        let outcome = await outcomes.next()
        guard case .failure(let error)? = outcome?.result else {
            Issue.record("a refusal is an outcome: \(String(describing: outcome))")
            return
        }
        #expect(error.code == .notFound)
        #expect(await phone.pendingOperations.isEmpty)
        await #expect(throws: LifeSignalClientError.notQueueable(Op.contactsList)) { try await phone.enqueue(.contactsList) }
        let plain = try Self.client(cast.alice, port: broker.port, device: "plain")
        await #expect(throws: LifeSignalClientError.noOutbox) { try await plain.enqueue(.checkIn) }
    }
}
