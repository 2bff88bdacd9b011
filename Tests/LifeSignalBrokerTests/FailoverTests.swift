import Foundation
import LifeSignalClient
import LifeSignalProtocol
import LifeSignalUV
import Testing

/// A client given several brokers (PROTOCOL §11) connects to any that is up, and when its broker
/// goes, moves to the next and resumes with exactly the events it missed.
/// The time limit guards against a hang and is longer than a sanitized run, whose blocking
/// integration tests can hold the cooperative pool, and so these async tests, for minutes.
@Suite(.timeLimit(.minutes(20)))
struct FailoverTests {
    /// A port nothing listens on (bound, read, released).
    static func freePort() throws -> Int {
        let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0
            }
        }
        guard bound else { throw POSIXError(.EADDRINUSE) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    func device(_ registration: Registration, _ deviceID: String, on endpoints: [Endpoint],
                reconnect: ReconnectPolicy = .default) throws -> LifeSignalClient {
        try LifeSignalClient(configuration: ClientConfiguration(
            endpoints: endpoints, userID: registration.user.id, token: registration.token, deviceID: deviceID,
            reconnect: reconnect))
    }

    @Test func aDeadEndpointIsPassedOverAndANameWorks() async throws {
        let broker = try InProcessBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(port: broker.port, name: "Alice")
        let dead = Endpoint(host: "127.0.0.1", port: try Self.freePort())
        let phone = try device(alice, "phone", on: [dead, Endpoint(host: "localhost", port: broker.port)],
                               reconnect: .disabled)
        let hello = try await phone.connect()
        #expect(hello.user.id == alice.user.id)
        #expect(await phone.endpoint == Endpoint(host: "localhost", port: broker.port))
        await phone.close()
    }

    @Test func aDeviceWhoseBrokerWentResumesOnTheNextWithExactlyWhatItMissed() async throws {
        let directory = InProcessBroker.newDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try InProcessBroker(directory: directory)
        let secondPort = try Self.freePort()
        let endpoints = [Endpoint(host: "127.0.0.1", port: first.port), Endpoint(host: "127.0.0.1", port: secondPort)]
        let alice = try await LifeSignalClient.register(port: first.port, name: "Alice")
        let bob = try await LifeSignalClient.register(port: first.port, name: "Bob")
        let phone = try device(alice, "phone", on: endpoints)
        let seqs = Locked<[Int64]>([])
        let watching = Task {
            for await event in phone.events { if case .event(let seq, _, _) = event { seqs.withLock { $0.append(seq) } } }
        }
        try await phone.connect()
        let tablet = try device(alice, "tablet", on: endpoints)
        try await tablet.connect()
        _ = try await tablet.checkIn()
        #expect(await poll { await phone.state?.lastSeq == (await tablet.state)?.lastSeq })

        first.stop()
        let second = try InProcessBroker(directory: directory) { $0.port = secondPort }
        defer { second.stop() }
        // The tablet moves too; what it does now, the phone has missed.
        _ = await poll { await tablet.isConnected }
        _ = try await tablet.addContact(qrCode: bob.user.qrCode, isResponder: true, isDependent: false)
        _ = try await tablet.checkIn()

        #expect(await poll {
            let (connected, mine, theirs) = (await phone.isConnected, await phone.state, await tablet.state)
            return connected && mine?.lastSeq == theirs?.lastSeq
        })
        #expect(await phone.endpoint.port == secondPort)
        let (phoneState, tabletState) = (await phone.state, await tablet.state)
        #expect(phoneState?.user == tabletState?.user)
        #expect(phoneState?.contacts == tabletState?.contacts)
        let received = seqs.withLock { $0 }
        #expect(received == Array(1...(received.last ?? 0)), "every event once, in order")
        await phone.close()
        await tablet.close()
        watching.cancel()
    }
}
