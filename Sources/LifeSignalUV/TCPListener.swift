import CLibUV

/// A listening TCP socket. Loop thread only.
public final class TCPListener: LoopHandleOwner {
    let loop: EventLoop
    let rawHandle: UnsafeMutableRawPointer
    var handleState = HandleState.open
    private let backlog: Int32
    private var onAccept: ((TCPConnection) -> Void)?
    private var onError: ((UVError) -> Void)?
    /// The real port, also after binding port 0.
    public private(set) var localPort: Int = 0

    public init(loop: EventLoop, host: String, port: Int, backlog: Int32 = 4096, reusePort: Bool = false) throws {
        let address = try SocketAddress(host: host, port: port)
        self.loop = loop
        self.backlog = backlog
        self.rawHandle = allocateHandle(uv_tcp_t.self)
        // With a family, libuv creates the socket now, so options can be set before bind.
        try adoptHandle(uv_tcp_init_ex(loop.uvLoop, ls_tcp(rawHandle), UInt32(address.family)), "uv_tcp_init_ex")
        do {
            let tcp = ls_tcp(rawHandle)
            try uvCheck(ls_set_reuseaddr(tcp), "setsockopt(SO_REUSEADDR)")
            if reusePort {
                try uvCheck(ls_set_reuseport(tcp), "setsockopt(SO_REUSEPORT)")
            }
            try address.withSockAddr { (sockaddr) throws(UVError) in
                try uvCheck(ls_tcp_bind(tcp, sockaddr, 0), "uv_tcp_bind")
            }
            localPort = try SocketAddress.query(tcp, "uv_tcp_getsockname", uv_tcp_getsockname).port
        } catch {
            close()
            throw error
        }
    }

    /// Starts listening. Accepted connections have TCP_NODELAY set and are not yet reading.
    ///
    /// `onError` hears of failed accepts. On EMFILE/ENFILE libuv closes a spare descriptor,
    /// accepts and closes what is pending, and opens the spare again; only when it has no spare
    /// does the error reach `onError`, and libuv then retries accept(2) at once, in a loop, until
    /// the listener is closed. So on EMFILE/ENFILE the owner must close the listener (and may
    /// listen again later), or the loop spins.
    public func start(_ onAccept: @escaping (TCPConnection) -> Void, onError: ((UVError) -> Void)? = nil) throws {
        guard handleState == .open else { throw UVError(code: UV_EINVAL.rawValue, operation: "uv_listen") }
        self.onAccept = onAccept
        self.onError = onError
        try uvCheck(uv_listen(ls_stream(rawHandle), backlog) { server, status in
            let data = uv_handle_get_data(ls_handle(server!))!
            Unmanaged<TCPListener>.fromOpaque(data).takeUnretainedValue().accept(status: status)
        }, "uv_listen")
    }

    public func close() {
        closeHandle()
    }

    private func accept(status: Int32) {
        guard status == 0 else {
            // Nothing to hand out. libuv keeps listening, and retries at once (see `start`).
            if handleState == .open { onError?(UVError(code: status, operation: "accept")) }
            return
        }
        guard handleState == .open, let onAccept else { return }
        guard let connection = try? TCPConnection(loop: loop) else { return }
        do {
            try uvCheck(uv_accept(ls_stream(rawHandle), ls_stream(connection.rawHandle)), "uv_accept")
        } catch {
            connection.close()
            return
        }
        connection.didEstablish()
        onAccept(connection)
    }

    func handleDidClose() {
        onAccept = nil
        onError = nil
    }

    func beginGracefulShutdown() {
        close()
    }
}
