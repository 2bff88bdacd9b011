/// Where the cluster's PostgreSQL is:
/// `postgres://user[:password]@host[:port]/database[?pool=N&sslmode=MODE&sslrootcert=PATH]`
/// (`postgresql://` too). Brokers given the same URL are one cluster (PROTOCOL §11).
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var username: String
    /// nil: `ClusterDatabase.open` looks in PGPASSWORD and the password file, as libpq does.
    public var password: String?
    public var database: String
    /// Connections this broker keeps open for its statements at most; its hint listener has one more.
    public var poolSize: Int
    public var sslMode: SSLMode
    /// The root certificate(s) (PEM) a server's certificate must chain to; nil: the system's.
    public var sslRootCertificate: String?

    public static let defaultPort = 5432
    public static let defaultPoolSize = 8

    /// libpq's `sslmode` (its default too is `prefer`). `verify-ca` and `verify-full` check the
    /// server's certificate; `require` checks it only when `sslrootcert` is given, as libpq does.
    public enum SSLMode: String, Sendable, CaseIterable {
        case disable, prefer, require
        case verifyCA = "verify-ca"
        case verifyFull = "verify-full"
    }

    public init(host: String, port: Int = defaultPort, username: String, password: String? = nil, database: String,
                poolSize: Int = defaultPoolSize, sslMode: SSLMode = .prefer, sslRootCertificate: String? = nil) {
        self.host = host
        self.port = port
        self.username = username
        self.password = password
        self.database = database
        self.poolSize = poolSize
        self.sslMode = sslMode
        self.sslRootCertificate = sslRootCertificate
    }

    public init(parsing text: String) throws(PostgresStoreError) {
        let bad = { (why: String) in PostgresStoreError.badURL("'\(Self.redacting(text))': \(why)") }
        guard let scheme = text.range(of: "://"),
              ["postgres", "postgresql"].contains(text[..<scheme.lowerBound]) else {
            throw bad("must start with postgres://")
        }
        var rest = Substring(text[scheme.upperBound...])
        var poolSize = Self.defaultPoolSize
        var sslMode = SSLMode.prefer
        var sslRootCertificate: String?
        if let query = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: query)...].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1)
                guard parts.count == 2 else { throw bad(Self.options) }
                switch parts[0] {
                case "pool":
                    guard let size = Int(parts[1]), (1...1_000).contains(size) else { throw bad("pool must be 1…1000") }
                    poolSize = size
                case "sslmode":
                    guard let mode = SSLMode(rawValue: String(parts[1])) else {
                        throw bad("sslmode must be one of \(SSLMode.allCases.map(\.rawValue).joined(separator: ", "))")
                    }
                    sslMode = mode
                case "sslrootcert": sslRootCertificate = String(parts[1])
                default: throw bad(Self.options)
                }
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
                  password: user.count > 1 ? String(user[1]) : nil, database: database, poolSize: poolSize,
                  sslMode: sslMode, sslRootCertificate: sslRootCertificate)
    }

    private static let options = "the options are pool=N, sslmode=MODE and sslrootcert=PATH"

    /// The URL without its password, for logs and errors.
    public var description: String {
        let password = password == nil ? "" : ":***"
        let host = self.host.contains(":") ? "[\(self.host)]" : self.host
        let root = sslRootCertificate.map { "&sslrootcert=\($0)" } ?? ""
        return "postgres://\(username)\(password)@\(host):\(port)/\(database)?pool=\(poolSize)&sslmode=\(sslMode.rawValue)\(root)"
    }

    /// `text` with whatever may be a password hidden, however malformed `text` is: everything from
    /// the first ':' after the scheme to the last '@' (the user information, whatever the rest looks
    /// like); with no '@', everything after such a ':' unless it is a port number.
    static func redacting(_ text: String) -> String {
        let afterScheme = text.range(of: "//")?.upperBound ?? text.startIndex
        guard let colon = text[afterScheme...].firstIndex(of: ":") else { return text }
        let secret = text.index(after: colon)
        if let at = text[secret...].lastIndex(of: "@") {
            return String(text[..<secret]) + "***" + String(text[at...])
        }
        let tail = text[secret...].prefix { $0 != "/" && $0 != "?" }
        if !tail.isEmpty, tail.allSatisfy(\.isASCII), tail.allSatisfy(\.isNumber) { return text }
        return String(text[..<secret]) + "***"
    }
}
