import Glibc
import LifeSignalProtocol

/// A plain TCP socket to a broker, as a device's would be, for the tests that speak the wire
/// protocol themselves (RawConnection, the differential test's DiffWire).
final class TestSocket {
    enum Failure: Error { case socket(Int32), connect(Int32) }

    private let fd: Int32
    private var nextRid: Int64 = 1

    /// `receiveBuffer` shrinks the kernel's receive buffer (set before connecting), for a reader
    /// that falls behind quickly. `source` binds the local end to another loopback address
    /// (127.0.0.2…), to look like another host. A receive waits at most `receiveTimeoutMs`.
    init(host: String = "127.0.0.1", port: Int, receiveBuffer: Int32? = nil, source: String? = nil,
         receiveTimeoutMs: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure.socket(errno) }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        if let source {
            guard Self.withAddress(source, port: 0, { bind(fd, $0, $1) }) == 0 else {
                close(fd)
                throw Failure.connect(errno)
            }
        }
        guard Self.withAddress(host, port: port, { connect(fd, $0, $1) }) == 0 else {
            close(fd)
            throw Failure.connect(errno)
        }
        var timeout = timeval(tv_sec: receiveTimeoutMs / 1000, tv_usec: (receiveTimeoutMs % 1000) * 1000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(fd) }

    /// Ends the connection as a device going away does (the descriptor is closed at deinit).
    func hangUp() { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }

    /// A request's frame with the next rid of this connection, and that rid.
    func request(_ op: String, _ fields: JSONObject) -> (rid: Int64, frame: [UInt8]) {
        var body = fields
        body["op"] = .string(op)
        body["rid"] = .int(nextRid)
        defer { nextRid += 1 }
        return (nextRid, FrameEncoder.frame(.object(body)))
    }

    /// Sends all of `bytes`, or stops at the first failure (the broker has closed).
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 { return }
            offset += sent
        }
    }

    /// One recv(2), waiting up to the receive timeout: each whole frame's body goes to `onFrame`.
    /// Returns the bytes read (0 when nothing came in time), or nil once the peer has closed or
    /// the socket failed. A frame that cannot be decoded ends the feed, as a broker would.
    func receiveFrames(into decoder: inout FrameDecoder, _ onFrame: (UnsafeRawBufferPointer) -> Void) -> Int? {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count == 0 || (count < 0 && errno != EAGAIN && errno != EWOULDBLOCK) { return nil }
        guard count > 0 else { return 0 }
        try? chunk.withUnsafeBytes { bytes in
            try decoder.feed(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) { body in
                onFrame(body)
                return true
            }
        }
        return count
    }

    private static func withAddress(_ host: String, port: Int,
                                    _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32) -> Int32 {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, host, &address.sin_addr)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
