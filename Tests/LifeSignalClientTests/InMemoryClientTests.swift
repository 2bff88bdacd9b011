import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

/// The in-memory client an app's tests and previews use in place of a broker: the broker's own
/// rules over the user's account, their events applied as a real client applies them.
@Suite struct InMemoryClientTests {
    /// App code written against the protocol, as a view model would be.
    static func checkInAndRaiseAnAlert(_ client: some LifeSignalClientProtocol) async throws -> DeviceState? {
        _ = try await client.checkIn()
        _ = try await client.triggerAlert(message: "fell")
        return await client.state
    }

    @Test func theUsersOwnRequestsRunTheBrokersRules() async throws {
        let client = InMemoryLifeSignalClient(state: Fixtures.state(seq: 10))
        await #expect(throws: LifeSignalClientError.notConnected) { try await client.checkIn() }
        _ = try await client.connect()
        let state = try #require(try await Self.checkInAndRaiseAnAlert(client))
        #expect(state.user.lastCheckInAt != nil && state.user.checkInDeadline != nil)
        #expect(state.user.alert?.message == "fell")
        #expect(state.lastSeq == 12, "one user.updated event each, applied in order")
        // The rules refuse as the broker does.
        await #expect { try await client.updateProfile(ProfileUpdate(checkInIntervalSec: 5)) } throws: { error in
            (error as? LifeSignalClientError)?.serverError?.code == .badRequest
        }
        #expect(try await client.markAllNotificationsRead() == 1)
        #expect(await client.state?.unreadCount == 0)
    }

    @Test func streamsAndTheOutboxBehaveAsTheRealClientsDo() async throws {
        let client = InMemoryLifeSignalClient(state: Fixtures.state())
        var user = await client.userUpdates().makeAsyncIterator()
        #expect(await user.next()?.name == "Alice")
        try await client.enqueue(.profileUpdate(ProfileUpdate(name: "Alice B")))
        #expect(await client.pendingOperations.count == 1, "kept while not connected")
        _ = try await client.connect()
        #expect(await client.pendingOperations.isEmpty)
        #expect(await user.next()?.name == "Alice B")
        await #expect(throws: LifeSignalClientError.notQueueable(Op.contactsList)) { try await client.enqueue(.contactsList) }
    }
}
