import Foundation
import LifeSignalClient
import LifeSignalTesting
import Synchronization
import Testing

/// `ClientConfiguration.credentials` (issue 27 item 7): asked before every connection attempt,
/// and what it gives is the token `hello` says.
@Suite(.timeLimit(.minutes(20)))
struct CredentialsProviderTests {
    /// A keychain of one token, and how often it was read.
    final class Keychain: Sendable {
        let token = Mutex<String?>(nil)
        let reads = Mutex(0)

        func read() throws -> String {
            reads.withLock { $0 += 1 }
            guard let token = token.withLock({ $0 }) else { throw LockedKeychain() }
            return token
        }
    }

    struct LockedKeychain: Error {}

    @Test func eachAttemptAsksForTheTokenAndSaysHelloWithIt() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        let keychain = Keychain()
        var configuration = ClientConfiguration(host: broker.host, port: broker.port, userID: alice.user.id,
                                                token: "not-the-token", deviceID: "phone", reconnect: .disabled)
        configuration.credentials = { try keychain.read() }
        let client = try LifeSignalClient(configuration: configuration)

        // Locked (the phone not unlocked since boot, say): the attempt fails, nothing is sent.
        await #expect {
            try await client.connect()
        } throws: { error in
            guard case .connectionFailed(let reason) = error as? LifeSignalClientError else { return false }
            return reason.contains("no credentials")
        }
        keychain.token.withLock { $0 = alice.token }
        let hello = try await client.connect()
        #expect(hello.user.id == alice.user.id)
        #expect(keychain.reads.withLock { $0 } == 2)

        // A wrong token from the provider is the broker's unauthenticated, as any wrong token.
        await client.close()
        keychain.token.withLock { $0 = "wrong" }
        var wrong = configuration
        wrong.credentials = { try keychain.read() }
        let refused = try LifeSignalClient(configuration: wrong)
        await #expect {
            try await refused.connect()
        } throws: { error in
            if case .server(let error) = error as? LifeSignalClientError { error.code == .unauthenticated } else { false }
        }
        await refused.close()
    }

    /// A provider that never answers (a keychain prompt left open) fails the attempt within
    /// `responseTimeoutMs`, as a broker that never answers does.
    @Test func aProviderThatNeverAnswersTimesOut() async throws {
        let broker = try TestBroker()
        defer { broker.stop() }
        let alice = try await LifeSignalClient.register(host: broker.host, port: broker.port, name: "Alice")
        var configuration = ClientConfiguration(host: broker.host, port: broker.port, userID: alice.user.id,
                                                token: alice.token, deviceID: "phone", reconnect: .disabled,
                                                responseTimeoutMs: 200)
        configuration.credentials = {
            try await Task.sleep(for: .seconds(3600))
            return alice.token
        }
        let client = try LifeSignalClient(configuration: configuration)
        await #expect {
            try await client.connect()
        } throws: { error in
            guard case .timedOut(let reason) = error as? LifeSignalClientError else { return false }
            return reason.contains("no credentials")
        }
        await client.close()
    }
}
