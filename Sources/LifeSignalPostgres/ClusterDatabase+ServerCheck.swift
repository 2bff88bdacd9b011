import Logging
import NIOSSL
import PostgresNIO
import LifeSignalUV

extension ClusterDatabase {
    /// Connects once by hand before the pool does. The pool retries a failed connect for as long
    /// as a statement waits, so a wrong password or certificate would look like a server that
    /// never answers; one connection of our own hears the server's refusal and reports it at once.
    /// Failures that may pass (refused, reset, no answer yet) are retried until `timeout`.
    /// - Throws: `PostgresStoreError.authenticationFailed`, `.tlsFailed` or `.unreachable`.
    static func checkServer(_ url: PostgresURL, timeout: Duration, logger: Logger) async throws(PostgresStoreError) {
        var configuration = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.username, password: url.password, database: url.database,
            tls: try url.connectionTLS())
        configuration.options.connectTimeout = .nanoseconds(Int64(timeout / .nanoseconds(1)))
        let settings = configuration
        let deadline = ContinuousClock.now + timeout
        var lastFailure = "no answer within \(timeout)"
        while true {
            do {
                try await withDeadline(deadline - .now) {
                    let connection = try await PostgresConnection.connect(configuration: settings, id: 0, logger: logger)
                    try? await connection.close()
                }
                return
            } catch {
                if let refusal = refusal(error, url: url) { throw refusal }
                if !(error is DeadlineExceeded) { lastFailure = reason(error) }
            }
            guard ContinuousClock.now + retryPause < deadline else { throw .unreachable("\(url): \(lastFailure)") }
            try? await Task.sleep(for: retryPause)
        }
    }

    /// What the handshake asked of the server's certificate, when it asked anything.
    private static func certificateRule(_ url: PostgresURL) -> String {
        let roots = url.sslRootCertificate.map { "sslrootcert=\($0)" } ?? "the system's root certificates"
        switch url.sslMode {
        case .verifyFull: return "; the server's certificate must chain to \(roots) and name \(url.host)"
        case .verifyCA: return "; the server's certificate must chain to \(roots)"
        case .require where url.sslRootCertificate != nil: return "; the server's certificate must chain to \(roots)"
        default: return ""
        }
    }

    private static let retryPause: Duration = .milliseconds(500)

    /// The errors trying again will not mend: the server refused these credentials, or no TLS
    /// session that `sslmode` accepts.
    static func refusal(_ error: any Error, url: PostgresURL) -> PostgresStoreError? {
        guard let error = error as? PSQLError else { return nil }
        if let state = error.serverInfo?[.sqlState], state.hasPrefix("28") {  // invalid_authorization_specification, invalid_password
            return .authenticationFailed("\(url): \(reason(error)) (SQLSTATE \(state))")
        }
        switch error.code {
        case .authMechanismRequiresPassword:
            return .authenticationFailed(
                "\(url): the server asks for a password and none was given (in the URL, --postgres-password-file, PGPASSWORD or PGPASSFILE)")
        case .unsupportedAuthMechanism, .saslError:
            return .authenticationFailed("\(url): \(reason(error))")
        case .sslUnsupported:
            return .tlsFailed("\(url): the server does not offer TLS, and sslmode=\(url.sslMode.rawValue) requires it")
        default:
            break
        }
        if let underlying = error.underlying, underlying is NIOSSLError || underlying is BoringSSLError
            || underlying is NIOSSLExtraError
        {
            return .tlsFailed("\(url): the TLS handshake failed\(certificateRule(url)): \(underlying)")
        }
        return nil
    }
}
