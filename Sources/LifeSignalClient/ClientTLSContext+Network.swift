#if canImport(Network)
import Foundation
import Network
import NIOSSL
import Security

/// A client's TLS settings as Network.framework's TLS options, made for each connection (the
/// server name is the endpoint's). The system's roots are the system's evaluation; CA files and
/// pinned keys decide in a verify block. CA files are read once, as DER.
/// Not built or run on Linux, where the tests run: ClientTLSContext+NIOSSL is.
struct ClientTLSContext: Sendable {
    let settings: ClientTLS
    /// The CA certificates a chain must lead to (`.certificateAuthorities`), DER.
    private let authorities: [[UInt8]]

    /// Where the verify blocks run.
    private static let verifyQueue = DispatchQueue(label: "lifesignal.client.tls-verify")

    /// - Throws: a CA file that cannot be read or holds no certificate.
    init(_ settings: ClientTLS) throws {
        self.settings = settings
        switch settings.trust {
        case .certificateAuthorities(let files):
            authorities = try files.flatMap { try NIOSSLCertificate.fromPEMFile($0) }.map { try $0.toDERBytes() }
        case .system, .pinnedPublicKeys:
            authorities = []
        }
    }

    func options(host: String) -> NWProtocolTLS.Options {
        let options = NWProtocolTLS.Options()
        let security = options.securityProtocolOptions
        sec_protocol_options_set_min_tls_protocol_version(security, .TLSv12)
        if let name = settings.serverName(connectingTo: host) {
            name.withCString { sec_protocol_options_set_tls_server_name(security, $0) }
        }
        switch settings.trust {
        case .system:
            break
        case .certificateAuthorities:
            // Evaluated in the block, on its own queue: nothing else waits on that queue.
            let authorities = self.authorities
            sec_protocol_options_set_verify_block(security, { _, trust, complete in
                let trust = sec_trust_copy_ref(trust).takeRetainedValue()
                let anchors = authorities.compactMap { SecCertificateCreateWithData(nil, Data($0) as CFData) }
                SecTrustSetAnchorCertificates(trust, anchors as CFArray)
                SecTrustSetAnchorCertificatesOnly(trust, true)
                complete(SecTrustEvaluateWithError(trust, nil))
            }, Self.verifyQueue)
        case .pinnedPublicKeys(let pins):
            // Neither issuer nor name is checked, as on Linux: the key is the identity.
            let pinned = Set(pins)
            sec_protocol_options_set_verify_block(security, { _, trust, complete in
                let chain = SecTrustCopyCertificateChain(sec_trust_copy_ref(trust).takeRetainedValue())
                    as? [SecCertificate] ?? []
                complete(chain.contains { certificate in
                    let der = Array(SecCertificateCopyData(certificate) as Data)
                    guard let parsed = try? NIOSSLCertificate(bytes: der, format: .der) else { return false }
                    return ClientTLS.holdsPinnedKey(parsed, pins: pinned)
                })
            }, Self.verifyQueue)
        }
        return options
    }
}
#endif
