/// Where the cluster's PostgreSQL is: `postgres://user[:password]@host[:port]/database[?pool=N]`
/// (`postgresql://` too). Brokers given the same URL are one cluster (PROTOCOL §11).
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    public var password: String?
    public var database: String
    /// Connections this broker keeps open at most.
    public var poolSize: Int

    public static let defaultPort = 5432
    public static let defaultPoolSize = 8

    public init(host: String, port: Int = defaultPort, username: String, password: String? = nil, database: String,
                poolSize: Int = defaultPoolSize) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.poolSize = poolSize
    }

    public init(parsing text: String) throws(PostgresStoreError) {
        let bad = { (why: String) in PostgresStoreError.badURL("'\(Self.redacting(text))': \(why)") }
        guard let scheme = text.range(of: "://"),
              ["postgres", "postgresql"].contains(text[..<scheme.lowerBound]) else {
            throw bad("must start with postgres://")
        }
        var rest = Substring(text[scheme.upperBound...])
        var poolSize = Self.defaultPoolSize
        if let query = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: query)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, parts[0] == "pool", let size = Int(parts[1]), (1...1_000).contains(size) else {
                    throw bad("the only option is pool=N (1…1000)")
                }
                poolSize = size
            }
            rest = rest[..<query]
        }
        guard let at = rest.lastIndex(of: "@") else { throw bad("needs user@host") }
        let credentials = rest[..<at]
        var location = rest[rest.index(after: at)...]
        guard let slash = location.firstIndex(of: "/") else { throw bad("needs /database") }
        let database = String(location[location.index(after: slash)...])
        location = location[..<slash]
        guard !database.isEmpty, !database.contains("/") else { throw bad("needs /database") }
        let user = credentials.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let name = user.first, !name.isEmpty else { throw bad("needs a user name") }
        var host = location
        var port = Self.defaultPort
        if let colon = location.lastIndex(of: ":"), !location.hasSuffix("]") {
            guard let number = Int(location[location.index(after: colon)...]), (1...65_535).contains(number) else {
                throw bad("the port must be 1…65535")
            }
            port = number
            host = location[..<colon]
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty else { throw bad("needs a host") }
        self.init(host: String(host), port: port, username: String(name),
                  password: user.count > 1 ? String(user[1]) : nil, database: database, poolSize: poolSize)
    }

    /// The URL without its password, for logs and errors.
    public var description: String {
        let password = password == nil ? "" : ":***"
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        return "postgres://\(username)\(password)@\(host):\(port)/\(database)?pool=\(poolSize)"
    }

    private static func redacting(_ text: String) -> String {
        guard let scheme = text.range(of: "://"), let at = text[scheme.upperBound...].lastIndex(of: "@"),
              let colon = text[scheme.upperBound..<at].firstIndex(of: ":") else { return text }
        return String(text[..<text.index(after: colon)]) + "***" + String(text[at...])
    }
}
