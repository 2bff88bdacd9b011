/// `host:port`, or `[v6]:port`.
struct BrokerAddress: Sendable, Equatable, CustomStringConvertible {
    var host: String
    var port: Int

    init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    init(parsing text: String) throws(CLIError) {
        var hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            hostPart = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw .usage("broker address '\(text)' must be host:port") }
            portPart = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw .usage("broker address '\(text)' must be host:port")
            }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
        }
        if hostPart.isEmpty { hostPart = "127.0.0.1" }
        guard let port = Int(portPart), (1...65_535).contains(port) else {
            throw .usage("broker address '\(text)' has no valid port")
        }
        self.host = String(hostPart)
        self.port = port
    }

    var description: String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}
