#if !canImport(Network)
import NIOCore
import NIOSSL

/// A client's TLS context on SwiftNIO's sockets: NIOSSL's, made once (loading roots and CA files
/// costs), and a handler from it for each connection.
struct ClientTLSContext: Sendable {
    let settings: ClientTLS
    private let context: NIOSSLContext

    /// - Throws: a CA file that cannot be read or holds no certificate.
    init(_ settings: ClientTLS) throws {
        var configuration = TLSConfiguration.makeClientConfiguration()
        configuration.minimumTLSVersion = .tlsv12
        switch settings.trust {
        case .system:
            configuration.trustRoots = .default
        case .certificateAuthorities(let files):
            configuration.trustRoots = .certificates(try files.flatMap { try NIOSSLCertificate.fromPEMFile($0) })
        case .pinnedPublicKeys:
            // The pins decide, in `handler`'s callback (which BoringSSL skips under `.none`).
            configuration.certificateVerification = .noHostnameVerification
        }
        self.settings = settings
        context = try NIOSSLContext(configuration: configuration)
    }

    func handler(host: String) throws -> NIOSSLClientHandler {
        let name = settings.serverName(connectingTo: host)
        guard case .pinnedPublicKeys(let pins) = settings.trust else {
            return try NIOSSLClientHandler(context: context, serverHostname: name)
        }
        let pinned = Set(pins)
        return try NIOSSLClientHandler(context: context, serverHostname: name) { chain, promise in
            promise.succeed(chain.contains { ClientTLS.holdsPinnedKey($0, pins: pinned) } ? .certificateVerified : .failed)
        }
    }
}
#endif
