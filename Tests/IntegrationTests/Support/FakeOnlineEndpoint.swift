import Foundation
import LifeSignalUV

/// Stands in for the broker's `GET /v1/users/{id}/online` (its HTTP server on `--metrics-port`,
/// built on another branch) so that `lsbroker users --metrics-url` is tested against real HTTP:
/// a loopback socket answering every request with the given devices, then closing.
final class FakeOnlineEndpoint: @unchecked Sendable {
    let url: String
    private let listener: Int32
    private let paths = Locked<[String]>([])

    init(userID: String, devices: [String]) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                bind(listener, pointer, length) == 0 && listen(listener, 8) == 0
                    && getsockname(listener, pointer, &length) == 0
            }
        }
        guard bound else { throw RawConnection.RawError.socket(errno) }
        url = "http://127.0.0.1:\(UInt16(bigEndian: address.sin_port))"
        let body = #"{"user":"\#(userID)","devices":[\#(devices.map { "\"\($0)\"" }.joined(separator: ","))]}"#
        let response = "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: \(body.utf8.count)\r\n"
            + "connection: close\r\n\r\n" + body
        let paths = self.paths
        Thread.detachNewThread {
            while true {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }  // closed: the test is over
                var request: [UInt8] = []
                var chunk = [UInt8](repeating: 0, count: 4_096)
                while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
                    let count = read(client, &chunk, chunk.count)
                    guard count > 0 else { break }
                    request += chunk.prefix(count)
                }
                let line = String(decoding: request, as: UTF8.self).split(separator: "\r\n").first ?? ""
                paths.withLock { $0.append(line.split(separator: " ").dropFirst().first.map(String.init) ?? "") }
                _ = response.withCString { write(client, $0, strlen($0)) }
                close(client)
            }
        }
    }

    /// The path of each request so far.
    func requestedPaths() -> [String] { paths.withLock { $0 } }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}
