import Foundation
import LifeSignalPostgres
import Logging
import PostgresNIO
import Testing

/// Opening the cluster's PostgreSQL: refused credentials are said at once, and `sslmode` is
/// honoured as libpq honours it (issue 24 items 3 and 4).
@Suite("Cluster: PostgreSQL authentication and TLS")
struct ClusterDatabaseSecurityTests {
    /// Generous, a guard against a hang, not a timing assertion: what counts is the error's kind,
    /// which a wait for the deadline would turn into "unreachable".
    static let timeout: Duration = .seconds(60)

    static func open(_ url: PostgresURL) async throws -> ClusterDatabase {
        try await ClusterDatabase.open(url, logger: TestDatabase.logger, timeout: timeout, environment: [:])
    }

    /// Whether this session to the server is encrypted, in the server's own words.
    static func isEncrypted(_ database: ClusterDatabase) async throws -> Bool {
        let rows = try await database.client.query(
            "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()", logger: TestDatabase.logger)
        for try await ssl in rows.decode(Bool.self) { return ssl }
        return false
    }

    @Test func aWrongOrMissingPasswordIsAuthenticationFailedNotUnreachable() async throws {
        let server = try await SecuredPostgres()
        var url = server.url
        url.sslMode = .disable
        url.password = "not-the-password-7x"
        await #expect {
            try await Self.open(url)
        } throws: { error in
            guard case .authenticationFailed(let why) = error as? PostgresStoreError else { return false }
            return why.contains("password authentication failed") && why.contains("28P01")
                && !"\(error)".contains("not-the-password")
        }
        url.password = nil
        await #expect {
            try await Self.open(url)
        } throws: { error in
            guard case .authenticationFailed(let why) = error as? PostgresStoreError else { return false }
            return why.contains("none was given")
        }
        url.password = SecuredPostgres.password
        let database = try await Self.open(url)
        await database.close()
    }

    @Test func sslModesAreHonoured() async throws {
        let server = try await SecuredPostgres()
        var url = server.url
        url.password = SecuredPostgres.password
        for (mode, encrypted) in [(PostgresURL.SSLMode.require, true), (.prefer, true), (.disable, false)] {
            url.sslMode = mode
            let database = try await Self.open(url)
            let isEncrypted = try await Self.isEncrypted(database)
            await database.close()
            #expect(isEncrypted == encrypted, "sslmode=\(mode.rawValue)")
        }

        url.sslMode = .verifyFull
        url.sslRootCertificate = server.rootCertificate
        let verified = try await Self.open(url)
        let isEncrypted = try await Self.isEncrypted(verified)
        await verified.close()
        #expect(isEncrypted)

        // A certificate that does not chain to the root given: refused, whichever mode checks it.
        url.sslRootCertificate = try await server.otherRootCertificate()
        for mode in [PostgresURL.SSLMode.verifyFull, .verifyCA, .require] {
            url.sslMode = mode
            await #expect("sslmode=\(mode.rawValue)") {
                try await Self.open(url)
            } throws: { error in
                guard case .tlsFailed(let why) = error as? PostgresStoreError else { return false }
                return why.contains("certificate") && !why.contains(SecuredPostgres.password)
            }
        }
        url.sslMode = .verifyFull
        url.sslRootCertificate = server.directory.appendingPathComponent("missing.crt").path
        await #expect {
            try await Self.open(url)
        } throws: { error in
            guard case .tlsFailed(let why) = error as? PostgresStoreError else { return false }
            return why.contains("sslrootcert=")
        }
    }

    @Test func requireAgainstAServerWithoutTLSFailsClearly() async throws {
        var url = try TestDatabase.serverURL
        url.sslMode = .require
        await #expect {
            try await Self.open(url)
        } throws: { error in
            guard case .tlsFailed(let why) = error as? PostgresStoreError else { return false }
            return why.contains("does not offer TLS")
        }
    }
}
