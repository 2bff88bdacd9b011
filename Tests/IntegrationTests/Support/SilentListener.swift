import Glibc

/// A frozen broker: a loopback port that listens and never accepts, reads or answers. The kernel
/// completes connections into the backlog, so a client connects, sends `hello`, and waits, as with
/// a broker stopped by SIGSTOP.
final class SilentListener {
    let port: Int
    private let fd: Int32

    init() throws {
        (fd, port) = try Self.bound()
        guard listen(fd, 64) == 0 else {
            close(fd)
            throw SilentListenerError(errno: errno)
        }
    }

    var address: String { "127.0.0.1:\(port)" }

    deinit { close(fd) }

    /// A loopback port nothing listens on (bound once, then closed).
    static func closedPort() throws -> Int {
        let (fd, port) = try bound()
        close(fd)
        return port
    }

    private static func bound() throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw SilentListenerError(errno: errno) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        guard bound else {
            let error = SilentListenerError(errno: errno)
            close(fd)
            throw error
        }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }
}

struct SilentListenerError: Error {
    let errno: Int32
}
