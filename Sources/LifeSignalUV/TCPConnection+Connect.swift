import CLibUV

extension TCPConnection {
    /// Connects to host:port (IP literal or "localhost"), optionally from `sourceAddress` (port 0),
    /// so a load generator can spread over 127.0.0.1–127.0.0.255. The completion always runs later
    /// on the loop thread, never inside this call. The connection has TCP_NODELAY set and is not
    /// yet reading.
    public static func connect(
        loop: EventLoop, host: String, port: Int, sourceAddress: String? = nil,
        _ completion: @escaping (Result<TCPConnection, UVError>) -> Void
    ) {
        let connection: TCPConnection
        do {
            connection = try TCPConnection(loop: loop)
        } catch {
            loop.runSoon { completion(.failure(error)) }
            return
        }
        do {
            try connection.startConnect(host: host, port: port, sourceAddress: sourceAddress)
            connection.connectCompletion = completion
        } catch {
            connection.close()
            loop.runSoon { completion(.failure(error)) }
        }
    }

    private func startConnect(host: String, port: Int, sourceAddress: String?) throws(UVError) {
        let remote = try SocketAddress(host: host, port: port)
        if let sourceAddress {
            let local = try SocketAddress(host: sourceAddress, port: 0)
            try local.withSockAddr { (address) throws(UVError) in
                try uvCheck(ls_tcp_bind(tcp, address, 0), "uv_tcp_bind")
            }
        }
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        do {
            try remote.withSockAddr { (address) throws(UVError) in
                try uvCheck(uv_tcp_connect(request, tcp, address) { request, status in
                    let request = request!
                    let data = uv_handle_get_data(ls_handle(request.pointee.handle))!
                    let connection = Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue()
                    request.deallocate()
                    connection.didConnect(status: status)
                }, "uv_tcp_connect")
            }
        } catch {
            request.deallocate()
            throw error
        }
    }

    private func didConnect(status: Int32) {
        guard let completion = connectCompletion else { return }
        connectCompletion = nil
        if status < 0 {
            // ECANCELED when closed while connecting; the handle is already closing then.
            close()
            completion(.failure(UVError(code: status, operation: "uv_tcp_connect")))
        } else {
            didEstablish()
            completion(.success(self))
        }
    }
}
