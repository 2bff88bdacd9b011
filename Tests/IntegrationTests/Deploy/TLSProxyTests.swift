import Foundation
import LifeSignalClient
import LifeSignalProtocol
import Testing

/// deploy/stunnel/lifesignal.conf in front of a real broker, with a certificate made at test time:
/// lsclient and the library connect through it with TLS, check the certificate (CA, name, pinned
/// key), and refuse one they cannot trust; a device without TLS gets nothing from it.
@Suite("TLS proxy: devices through deploy/'s stunnel", .serialized)
struct TLSProxyTests {
    let broker: BrokerProcess
    let certificates: TestCertificates
    let proxy: TLSProxy

    init() throws {
        broker = try BrokerProcess()
        certificates = try TestCertificates()
        proxy = try TLSProxy(broker: broker, certificates: certificates)
    }

    @Test func lsclientRegistersAndActsThroughTheProxy() throws {
        let cli = LSClient(addresses: proxy.address)
        let registered = try cli.run(["--profile", "alice", "--ca-file", certificates.caFile, "register", "--name", "Alice"])
        #expect(registered.status == 0, "\(registered.stderr)")
        // The profile remembers TLS and its CA: later commands need neither flag.
        let checkIn = try cli.run(["--profile", "alice", "--json", "checkin"])
        #expect(checkIn.status == 0, "\(checkIn.stderr)")
        #expect(checkIn.result?["user"]?.objectValue?["lastCheckInAt"]?.intValue != nil)
        // By address: the certificate is for localhost, not for 127.0.0.1.
        let byAddress = try LSClient(addresses: "127.0.0.1:\(proxy.port)")
            .run(["--ca-file", certificates.caFile, "register", "--name", "Bob"])
        #expect(byAddress.status == 2 && byAddress.stderr.contains("certificate is not for the name"), "\(byAddress.stderr)")
    }

    @Test func aCertificateNoTrustedCAIssuedIsRefused() throws {
        for flags in [["--ca-file", certificates.otherCAFile], ["--tls"]] {
            let outcome = try LSClient(addresses: proxy.address).run(flags + ["register", "--name", "Mallory"])
            #expect(outcome.status == 2, "\(flags): \(outcome.stderr)")
            #expect(outcome.stderr.contains("TLS handshake failed: CERTIFICATE_VERIFY_FAILED"), "\(outcome.stderr)")
        }
        // Without TLS the proxy is no broker: the connection ends, nothing is registered.
        let plain = try LSClient(addresses: proxy.address).run(["--timeout-ms", "3000", "register", "--name", "Plain"])
        #expect(plain.status == 2, "\(plain.stderr)")
    }

    /// The library: live events through TLS, a pinned key instead of a CA, and the name checked.
    @Test func theLibraryFollowsEventsThroughTLS() async throws {
        let trusted = ClientTLS(trust: .certificateAuthorities(pemFiles: [certificates.caFile]))
        let alice = try await LifeSignalClient.register(host: "localhost", port: proxy.port, name: "Alice", tls: trusted)
        let bob = try Person("Bob", port: broker.port)

        for tls in [trusted, ClientTLS(trust: .pinnedPublicKeys([certificates.pin]))] {
            let client = try LifeSignalClient(configuration: ClientConfiguration(
                host: "localhost", port: proxy.port, userID: alice.user.id, token: alice.token, deviceID: "phone",
                reconnect: .disabled, tls: tls))
            _ = try await client.connect()
            _ = try await client.request(.contactsAdd(qrCode: bob.qrCode, isResponder: true, isDependent: false))
            #expect(await client.state?.contacts[bob.id] != nil)
            // A live event, from a device on the broker's own port, reaches Alice through TLS.
            #expect(bob.request(Op.pingSend, ["contactId": .string(alice.user.id)])?.okFields != nil)
            var pinged = false
            for await event in client.events {
                if case .event(_, EventName.notificationAdded, let data) = event,
                   data.objectValue?["notification"]?.objectValue?["type"]?.stringValue == "ping" {
                    pinged = true
                    break
                }
            }
            #expect(pinged)
            await client.close()
            _ = try await LifeSignalClient.register(host: "localhost", port: proxy.port, name: "Carol", tls: tls)
            _ = bob.request(Op.contactsRemove, ["contactId": .string(alice.user.id)])
        }

        let refused: [ClientTLS] = [
            ClientTLS(trust: .pinnedPublicKeys([Data(repeating: 7, count: 32).base64EncodedString()])),
            ClientTLS(trust: .certificateAuthorities(pemFiles: [certificates.caFile]), serverName: "signal.example.com"),
        ]
        for tls in refused {
            await #expect(throws: LifeSignalClientError.self, "\(tls)") {
                try await LifeSignalClient.register(host: "localhost", port: self.proxy.port, name: "Eve", tls: tls)
            }
        }
    }

    /// A live link that ends without TLS's close_notify (the proxy killed) is a lost connection,
    /// as any: requests on it may have run. Only a failed handshake is a connection that never
    /// reached the broker (which `lsclient --queue` takes as nothing sent).
    @Test func aLiveTLSLinkThatDiesIsLostNotFailed() async throws {
        let tls = ClientTLS(trust: .certificateAuthorities(pemFiles: [certificates.caFile]))
        let alice = try await LifeSignalClient.register(host: "localhost", port: proxy.port, name: "Alice", tls: tls)
        let client = try LifeSignalClient(configuration: ClientConfiguration(
            host: "localhost", port: proxy.port, userID: alice.user.id, token: alice.token, deviceID: "phone",
            reconnect: .disabled, tls: tls))
        _ = try await client.connect()
        proxy.stop()
        var ended: LifeSignalClientError?
        for await event in client.events {
            if case .disconnected(let error, _) = event {
                ended = error
                break
            }
        }
        guard case .connectionLost? = ended else {
            Issue.record("a live TLS link lost is connection_lost: \(String(describing: ended))")
            return
        }
        await client.close()
    }
}
