/// Why the cluster's store could not be used.
public enum PostgresStoreError: Error, Equatable, CustomStringConvertible {
    case badURL(String)
    /// Not reachable (or refused us) within the time allowed.
    case unreachable(String)
    /// The server refused the user or its password (SQLSTATE class 28): waiting will not help.
    case authenticationFailed(String)
    /// No TLS session to the server that `sslmode` accepts (none offered, or a certificate that
    /// does not verify).
    case tlsFailed(String)
    /// The password could not be read from where it was to be found (a file, PGPASSFILE).
    case passwordUnavailable(String)
    case migrationFailed(String)

    public var description: String {
        switch self {
        case .badURL(let why): "bad PostgreSQL URL \(why)"
        case .unreachable(let why): "PostgreSQL is unreachable: \(why)"
        case .authenticationFailed(let why): "PostgreSQL authentication failed: \(why)"
        case .tlsFailed(let why): "no TLS session with PostgreSQL: \(why)"
        case .passwordUnavailable(let why): "no PostgreSQL password: \(why)"
        case .migrationFailed(let why): "the PostgreSQL schema could not be migrated: \(why)"
        }
    }
}
