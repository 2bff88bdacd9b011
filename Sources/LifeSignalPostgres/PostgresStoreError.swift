/// Why the cluster's store could not be used.
public enum PostgresStoreError: Error, Equatable, CustomStringConvertible {
    case badURL(String)
    /// Not reachable (or refused us) within the time allowed.
    case unreachable(String)
    case migrationFailed(String)

    public var description: String {
        switch self {
        case .badURL(let why): "bad PostgreSQL URL \(why)"
        case .unreachable(let why): "PostgreSQL is unreachable: \(why)"
        case .migrationFailed(let why): "the PostgreSQL schema could not be migrated: \(why)"
        }
    }
}
