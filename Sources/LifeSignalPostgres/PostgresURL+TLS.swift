import NIOSSL
import PostgresNIO

extension PostgresURL {
    /// `sslmode` for the pool.
    func clientTLS() throws(PostgresStoreError) -> PostgresClient.Configuration.TLS {
        switch sslMode {
        case .disable: .disable
        case .prefer: .prefer(try tlsConfiguration())
        case .require, .verifyCA, .verifyFull: .require(try tlsConfiguration())
        }
    }

    /// `sslmode` for one connection of our own (`ClusterDatabase.checkServer`).
    func connectionTLS() throws(PostgresStoreError) -> PostgresConnection.Configuration.TLS {
        guard sslMode != .disable else { return .disable }
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: try tlsConfiguration()) } catch {
            throw .tlsFailed("\(self): \(error)")
        }
        return sslMode == .prefer ? .prefer(context) : .require(context)
    }

    /// What libpq checks of the server's certificate in each mode: nothing for `prefer` and for
    /// `require` without a root certificate; the chain for `verify-ca` (and `require` with one);
    /// the chain and the host name or IP address for `verify-full`.
    func tlsConfiguration() throws(PostgresStoreError) -> TLSConfiguration {
        var tls = TLSConfiguration.makeClientConfiguration()
        switch sslMode {
        case .disable, .prefer: tls.certificateVerification = .none
        case .require: tls.certificateVerification = sslRootCertificate == nil ? .none : .noHostnameVerification
        case .verifyCA: tls.certificateVerification = .noHostnameVerification
        case .verifyFull: tls.certificateVerification = .fullVerification
        }
        // libpq's sslrootcert=system means the system's roots, which are NIOSSL's default too.
        if let path = sslRootCertificate, path != "system", tls.certificateVerification != .none {
            do { tls.trustRoots = .certificates(try NIOSSLCertificate.fromPEMFile(path)) } catch {
                throw .tlsFailed("cannot read the root certificate sslrootcert=\(path): \(error)")
            }
        }
        return tls
    }
}
