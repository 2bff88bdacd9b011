/// One broker a client may connect to: `host:port` or `[v6]:port`; the host may be a name.
/// A cluster's brokers all serve every device (PROTOCOL §11), so a client is given several.
public struct Endpoint: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port` or `[v6]:port`; an empty host is 127.0.0.1.
    /// - Throws: `EndpointError` saying what is wrong with `text`.
    public init(parsing text: String) throws(EndpointError) {
        var hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw EndpointError("broker address '\(text)' must be host:port") }
            portPart = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw EndpointError("broker address '\(text)' must be host:port")
            }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        if hostPart.isEmpty { hostPart = "127.0.0.1" }
        guard !hostPart.contains(where: \.isWhitespace) else {
            throw EndpointError("broker address '\(text)' has a space in its host")
        }
        guard let port = Int(portPart), (1...65_535).contains(port) else {
            throw EndpointError("broker address '\(text)' has no valid port")
        }
        self.init(host: String(hostPart), port: port)
    }

    /// A comma-separated list, `host:port,host:port` (spaces around the commas are allowed).
    public static func list(parsing text: String) throws(EndpointError) -> [Endpoint] {
        var endpoints: [Endpoint] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let trimmed = item.trimmingCharacters(in: " ")
            guard !trimmed.isEmpty else { throw EndpointError("broker list '\(text)' has an empty entry") }
            endpoints.append(try Endpoint(parsing: trimmed))
        }
        return endpoints
    }

    public var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

public struct EndpointError: Error, Equatable, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

extension Substring {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        String(drop { $0 == character }.reversed().drop { $0 == character }.reversed())
    }
}
