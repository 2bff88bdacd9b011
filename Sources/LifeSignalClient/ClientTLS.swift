import Foundation
import Crypto
import NIOCore
import NIOSSL
#if canImport(Network)
import Network
import Security
#endif

/// TLS to the broker (PROTOCOL §1 puts none on the wire itself: production brokers sit behind a
/// TLS-terminating proxy, deploy/stunnel). The certificate is checked against the system's roots,
/// the app's own CA certificates, or pinned public keys, and must name the host connected to.
public struct ClientTLS: Sendable, Equatable {
    public enum Trust: Sendable, Equatable {
        /// The system's trusted roots.
        case system
        /// Only certificates issued by these CAs, each a PEM file (a private CA's, say).
        case certificateAuthorities(pemFiles: [String])
        /// Any chain holding one of these public keys: base64 of the SHA-256 of the key's
        /// SubjectPublicKeyInfo, as `openssl x509 -pubkey -noout | openssl pkey -pubin -outform der
        /// | openssl dgst -sha256 -binary | base64` prints it. Neither issuer nor name is checked.
        case pinnedPublicKeys([String])
    }

    public var trust: Trust
    /// The name the certificate must be for, sent as SNI too; nil: the endpoint's host. A
    /// certificate naming the IP address connected to is accepted too (NIOSSL's rule).
    public var serverName: String?

    public init(trust: Trust = .system, serverName: String? = nil) {
        self.trust = trust
        self.serverName = serverName
    }

    /// The system's roots.
    public static let system = ClientTLS()
}

extension ClientTLS {
    /// The name a certificate must be for when connecting to `host`: `serverName`, else the host
    /// unless it is an IP address (then the certificate must name that address).
    func serverName(connectingTo host: String) -> String? {
        serverName ?? ((try? SocketAddress(ipAddress: host, port: 0)) != nil ? nil : host)
    }

    /// Whether `certificate` holds one of `pins`' keys (`Trust.pinnedPublicKeys`).
    static func holdsPinnedKey(_ certificate: NIOSSLCertificate, pins: Set<String>) -> Bool {
        guard let key = try? certificate.extractPublicKey().toSPKIBytes() else { return false }
        return pins.contains(Data(SHA256.hash(data: key)).base64EncodedString())
    }
}

/// A TLS handshake that failed, as a person reads it: "TLS handshake failed:
/// CERTIFICATE_VERIFY_FAILED". Only the handshake's errors: the broker was never reached and
/// nothing was sent but `hello`. Any other TLS error (an unclean shutdown of a live link, say)
/// ends a connection that may have carried requests, so it is a lost connection, not this.
struct TLSFailure: CustomStringConvertible {
    let description: String

    init?(_ error: any Error) {
        #if canImport(Network)
        // Network.framework fails the connect itself with the handshake's status.
        if let error = error as? NWError, case .tls(let status) = error {
            let message = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
            description = "TLS handshake failed: " + message
            return
        }
        #endif
        if let extra = error as? NIOSSLExtraError, extra == .failedToValidateHostname {
            description = "TLS: the broker's certificate is not for the name or address connected to"
            return
        }
        guard case .handshakeFailed(let cause)? = error as? NIOSSLError else { return nil }
        // BoringSSL's "error:…:SSL routines:OPENSSL_internal:REASON at file:line": the reason.
        let text = "\(cause)"
        let reason = text.range(of: "OPENSSL_internal:").map { text[$0.upperBound...].prefix { $0 != " " } }
        description = "TLS handshake failed: " + (reason.map(String.init) ?? text)
    }
}
