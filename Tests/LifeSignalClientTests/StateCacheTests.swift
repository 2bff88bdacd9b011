import Foundation
import LifeSignalClient
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// Issue 27 item 6: the client keeps its last state in a cache, so that an app opened offline
/// shows it at once and its next `hello` resumes from it; a signed-out device's cache is cleared.
@Suite(.timeLimit(.minutes(20)))
struct StateCacheTests {
    static func client(_ registration: Registration, port: Int, device: String = "phone",
                       cache: (any StateCache)?) throws -> LifeSignalClient {
        var configuration = ClientConfiguration(
            host: "127.0.0.1", port: port, userID: registration.user.id, token: registration.token, deviceID: device,
            reconnect: ReconnectPolicy(initialDelayMs: 1, maxDelayMs: 50))
        configuration.stateCache = cache
        return try LifeSignalClient(configuration: configuration)
    }

    static func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("state-\(UUID().uuidString).json").path
    }

    /// Waits until the client has stopped for good, and returns why.
    static func endedFinally(_ client: LifeSignalClient) async -> LifeSignalClientError? {
        for await state in await client.connectionStates() {
            if case .offline(let error) = state { return error }
        }
        return nil
    }

    /// Connects with `cache`, waits until caught up, closes: the cache holds the state.
    static func runOnce(_ registration: Registration, port: Int, cache: any StateCache) async throws -> DeviceState? {
        let phone = try client(registration, port: port, cache: cache)
        _ = try await phone.connect()
        await phone.close()
        return await phone.state
    }

    @Test func aClientOpenedOfflineShowsTheCachedStateAndResumesFromIt() async throws {
        let first = try TestBroker()
        let port = first.port
        let alice = try await LifeSignalClient.register(host: first.host, port: port, name: "Alice")
        let bob = try await LifeSignalClient.register(host: first.host, port: port, name: "Bob")
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }

        // A run that gets events from someone else and makes some itself, then ends.
        let phone = try Self.client(alice, port: port, cache: FileStateCache(path: path))
        _ = try await phone.connect()
        var contacts = await phone.contactUpdates().makeAsyncIterator()
        #expect(await contacts.next() == [])
        let bobsPhone = try Self.client(bob, port: port, cache: nil)
        _ = try await bobsPhone.connect()
        _ = try await bobsPhone.addContact(qrCode: alice.user.qrCode, isResponder: false, isDependent: true)
        await bobsPhone.close()
        #expect(await contacts.next()?.map(\.name) == ["Bob"])
        _ = try await phone.checkIn()
        await phone.close()
        let cached = try #require(try FileStateCache(path: path).load())
        #expect(cached == (await phone.state), "the cache holds the state the client ended with")
        #expect(cached.sortedContacts.map(\.name) == ["Bob"] && cached.user.lastCheckInAt != nil)

        // What the phone misses while it is away.
        let tablet = try Self.client(alice, port: port, device: "tablet", cache: nil)
        _ = try await tablet.connect()
        _ = try await tablet.updateProfile(name: "Alice B")
        _ = try await tablet.checkIn()
        await tablet.close()
        first.stop()

        // Opened with the broker down: the cached state at once, before any connection.
        let reopened = try Self.client(alice, port: port, cache: FileStateCache(path: path))
        defer { Task { await reopened.close() } }
        #expect(await reopened.state == cached)
        var users = await reopened.userUpdates().makeAsyncIterator()
        #expect(await users.next() == cached.user)
        var reopenedContacts = await reopened.contactUpdates().makeAsyncIterator()
        #expect(await reopenedContacts.next() == cached.sortedContacts)
        var notifications = await reopened.notificationUpdates().makeAsyncIterator()
        let inbox = await notifications.next()
        #expect(inbox?.newest == cached.notifications && inbox?.unreadCount == cached.unreadCount)
        var connection = await reopened.connectionStates().makeAsyncIterator()
        #expect(await connection.next() == .idle)
        #expect(await !reopened.isConnected)

        // The broker back: hello resumes from the cached lastSeq, and only what was missed comes.
        let second = try TestBroker(directory: first.directory) { $0.port = port }
        defer { second.stop() }
        var events = reopened.events.makeAsyncIterator()
        let hello = try await reopened.connect()
        var snapshots = 0
        var seqs: [Int64] = []
        while let event = await events.next() {
            if case .snapshot = event { snapshots += 1 }
            if case .event(let seq, _, _) = event { seqs.append(seq) }
            if case .connected = event { break }
        }
        #expect(snapshots == 0, "resumed, not sent the whole state again")
        #expect(hello.lastSeq > cached.lastSeq)
        #expect(seqs == Array(cached.lastSeq + 1...hello.lastSeq), "the missed events, each once")
        let caughtUp = await reopened.state
        #expect(caughtUp?.lastSeq == hello.lastSeq && caughtUp?.user.name == "Alice B")
        #expect(await users.next()?.name == "Alice B")
    }

    @Test func changesAreSavedWhileTheClientRunsNotOnlyWhenItCloses() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let cache = RecordingStateCache()
        let phone = try Self.client(alice, port: broker.port, cache: cache)
        defer { Task { await phone.close() } }
        _ = try await phone.connect()
        _ = try await phone.checkIn()
        _ = try await phone.updateProfile(name: "Alice B")
        let current = try #require(await phone.state)
        var saved: DeviceState?
        for await state in cache.saves where state == current {
            saved = state
            break
        }
        #expect(saved == current)
        #expect(await phone.isConnected, "saved while live, not by close()")
    }

    @Test func aCorruptCacheOpensWithNoStateAndIsReplacedByTheNextOne() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data("{\"format\":1,\"lastSeq\":".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: (any Error).self) { try FileStateCache(path: path).load() }

        let phone = try Self.client(alice, port: broker.port, cache: FileStateCache(path: path))
        #expect(await phone.state == nil)
        _ = try await phone.connect()
        await phone.close()
        #expect(try FileStateCache(path: path).load() == (await phone.state))
    }

    @Test func anotherUsersCacheIsIgnored() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let bob = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Bob")
        let cache = InMemoryStateCache()
        let bobsState = try await Self.runOnce(bob, port: broker.port, cache: cache)
        #expect(bobsState != nil)
        #expect(try cache.load() == bobsState)

        let phone = try Self.client(alice, port: broker.port, cache: cache)
        defer { Task { await phone.close() } }
        #expect(await phone.state == nil)
        let hello = try await phone.connect()
        #expect(hello.user.id == alice.user.id)
        #expect(await phone.state?.user.name == "Alice")
    }

    @Test func deletingTheAccountClearsTheCache() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        _ = try await Self.runOnce(alice, port: broker.port, cache: FileStateCache(path: path))
        #expect(FileManager.default.fileExists(atPath: path))

        let phone = try Self.client(alice, port: broker.port, cache: FileStateCache(path: path))
        #expect(await phone.state != nil)
        _ = try await phone.connect()
        _ = try await phone.checkIn()  // a save on its way, which must not bring the file back
        try await phone.deleteAccount(confirm: "Alice")
        #expect(!FileManager.default.fileExists(atPath: path))
        #expect(await Self.endedFinally(phone)?.code == ProtocolError.Code.accountDeleted.rawValue)
        await phone.close()
        #expect(!FileManager.default.fileExists(atPath: path), "closing saves nothing back")
        #expect(try FileStateCache(path: path).load() == nil)
    }

    @Test func aRevokedDeviceForgetsTheCachedState() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let cache = InMemoryStateCache()
        _ = try await Self.runOnce(alice, port: broker.port, cache: cache)
        #expect(try cache.load() != nil)

        let phone = try Self.client(alice, port: broker.port, cache: cache)
        let tablet = try Self.client(alice, port: broker.port, device: "tablet", cache: nil)
        defer {
            Task { await phone.close() }
            Task { await tablet.close() }
        }
        _ = try await phone.connect()
        _ = try await tablet.connect()
        try await tablet.revokeDevice("phone")
        #expect(await Self.endedFinally(phone)?.code == ProtocolError.Code.revoked.rawValue)
        #expect(try cache.load() == nil)
        await phone.close()
        #expect(try cache.load() == nil, "closing saves nothing back")
    }

    @Test func revokingThisDeviceSignsItOutAndForgetsTheCachedState() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let cache = InMemoryStateCache()
        let phone = try Self.client(alice, port: broker.port, cache: cache)
        defer { Task { await phone.close() } }
        _ = try await phone.connect()
        await phone.didEnterBackground()  // saved before it returns
        #expect(try cache.load() == (await phone.state))
        _ = try await phone.connect()
        try await phone.revokeDevice("phone")
        #expect(try cache.load() == nil)
        await phone.close()
        #expect(try cache.load() == nil, "closing saves nothing back")
    }

    @Test func aRefusedTokenForgetsTheCachedState() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let cache = InMemoryStateCache()
        _ = try await Self.runOnce(alice, port: broker.port, cache: cache)

        let stale = Registration(user: alice.user, token: "not-alices-token", deviceToken: nil)
        let phone = try Self.client(stale, port: broker.port, cache: cache)
        defer { Task { await phone.close() } }
        #expect(await phone.state != nil, "shown until the broker says otherwise")
        let refusal = await #expect(throws: LifeSignalClientError.self) { try await phone.connect() }
        #expect(refusal?.code == ProtocolError.Code.unauthenticated.rawValue)
        #expect(try cache.load() == nil)
    }
}

/// A cache in memory that also tells each save as it happens, so a test can wait for one.
final class RecordingStateCache: StateCache, @unchecked Sendable {
    let saves: AsyncStream<DeviceState>
    private let continuation: AsyncStream<DeviceState>.Continuation
    private let stored = InMemoryStateCache()

    init() {
        (saves, continuation) = AsyncStream.makeStream(of: DeviceState.self)
    }

    func load() throws -> DeviceState? { try stored.load() }

    func save(_ state: DeviceState) throws {
        try stored.save(state)
        continuation.yield(state)
    }

    func clear() throws { try stored.clear() }
}
