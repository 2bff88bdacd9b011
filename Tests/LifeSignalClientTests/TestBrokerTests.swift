import LifeSignalClient
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// What an app's own tests do with the `LifeSignalTesting` product: a real broker in the test
/// process, two devices of one user on it through the client library, and the second device
/// in step with what the first did.
@Suite struct TestBrokerTests {
    @Test func twoDevicesOfAUserStayInStepOnATestBroker() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        func device(_ id: String) throws -> LifeSignalClient {
            try LifeSignalClient(configuration: ClientConfiguration(
                host: broker.host, port: broker.port, userID: alice.user.id, token: alice.token, deviceID: id))
        }
        let (phone, tablet) = (try device("phone"), try device("tablet"))
        defer {
            Task { await phone.close() }
            Task { await tablet.close() }
        }
        _ = try await phone.connect()
        let seen = try await tablet.connect()

        let checkedIn = try await phone.checkIn()
        // The tablet hears of it as an event after what its hello saw.
        for await event in tablet.events {
            if case .event(let seq, _, _) = event, seq > seen.lastSeq { break }
        }
        #expect(await tablet.state?.user.lastCheckInAt == checkedIn.lastCheckInAt)
        #expect(await tablet.state == phone.state)
    }

    @Test func aBrokerStartedOnTheSameDirectoryFindsTheSameUsers() async throws {
        let first = try TestBroker()
        let alice = try await LifeSignalClient.register(host: first.host, port: first.port, name: "Alice")
        first.stop()
        let second = try TestBroker(directory: first.directory)
        defer { second.stop() }
        let phone = try LifeSignalClient(configuration: ClientConfiguration(
            host: second.host, port: second.port, userID: alice.user.id, token: alice.token, deviceID: "phone"))
        defer { Task { await phone.close() } }
        let hello = try await phone.connect()
        #expect(hello.user.id == alice.user.id)
    }
}
