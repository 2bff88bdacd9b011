import CLibUV

/// An IPv4 or IPv6 address and port, parsed from a literal ("127.0.0.1", "::1", "localhost").
struct SocketAddress {
    var storage = sockaddr_storage()

    init(host: String, port: Int) throws(UVError) {
        guard (0...65535).contains(port) else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_ip_addr") }
        try uvCheck(ls_parse_address(host, Int32(port), &storage), "uv_ip_addr")
    }

    init(storage: sockaddr_storage) {
        self.storage = storage
    }

    /// `ip` and `port`; an IPv4-mapped address as IPv4.
    init(ip: IPAddress, port: UInt16) {
        ls_address_from_bytes(ip.bytes, Int32(port), &storage)
    }

    var family: Int32 { Int32(storage.ss_family) }

    var port: Int { Int(withUnsafePointer(to: storage) { ls_port($0) }) }

    @discardableResult
    /// Calls `body` with the address as the `const struct sockaddr *` libuv wants.
    func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>) throws(UVError) -> R) throws(UVError) -> R {
        var copy = storage
        return try withUnsafePointer(to: &copy) { (pointer) throws(UVError) -> R in try body(ls_sockaddr(pointer)) }
    }

    /// "127.0.0.1:54321" or "[::1]:54321".
    var description: String {
        var buffer = [CChar](repeating: 0, count: 96)
        let rc = withUnsafePointer(to: storage) { ls_format_address($0, &buffer, buffer.count) }
        guard rc == 0 else { return "unknown" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The address without its port; nil for a family other than IPv4 and IPv6.
    var ipAddress: IPAddress? {
        var bytes = [UInt8](repeating: 0, count: 16)
        let rc = withUnsafePointer(to: storage) { ls_address_bytes($0, &bytes) }
        guard rc == 0 else { return nil }
        return IPAddress(bytes: bytes)
    }

    /// Reads a handle's own or peer address with uv_tcp_getsockname / uv_tcp_getpeername.
    static func query(
        _ tcp: UnsafeMutablePointer<uv_tcp_t>,
        _ operation: StaticString,
        _ call: (UnsafePointer<uv_tcp_t>, UnsafeMutablePointer<sockaddr>, UnsafeMutablePointer<Int32>) -> Int32
    ) throws(UVError) -> SocketAddress {
        var storage = sockaddr_storage()
        var length = Int32(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { call(tcp, $0, &length) }
        }
        try uvCheck(rc, operation)
        return SocketAddress(storage: storage)
    }
}
