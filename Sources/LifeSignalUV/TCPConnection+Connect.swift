import CLibUV

extension TCPConnection {
    /// Connects to host:port (an IP literal, "localhost", or a name resolved with
    /// `uv_getaddrinfo`, trying its addresses in order), optionally from `sourceAddress` (port 0),
    /// so a load generator can spread over 127.0.0.1–127.0.0.255. The completion always runs later
    /// on the loop thread, never inside this call. The connection has TCP_NODELAY set and is not
    /// yet reading.
    public static func connect(
        loop: EventLoop, host: String, port: Int, sourceAddress: String? = nil,
        _ completion: @escaping (Result<TCPConnection, UVError>) -> Void
    ) {
        if let literal = try? SocketAddress(host: host, port: port) {
            return connect(loop: loop, trying: [literal][...], from: sourceAddress, completion)
        }
        NameResolver.resolve(loop: loop, host: host, port: port) { resolved in
            switch resolved {
            case .failure(let error):
                completion(.failure(error))
            case .success(let addresses):
                connect(loop: loop, trying: addresses[...], from: sourceAddress, completion)
            }
        }
    }

    /// Connects to the first of `addresses` that accepts.
    private static func connect(loop: EventLoop, trying addresses: ArraySlice<SocketAddress>, from sourceAddress: String?,
                                _ completion: @escaping (Result<TCPConnection, UVError>) -> Void) {
        guard let address = addresses.first else { return }
        let connection: TCPConnection
        do {
            connection = try TCPConnection(loop: loop)
        } catch {
            loop.runSoon { completion(.failure(error)) }
            return
        }
        connection.start(to: address, from: sourceAddress) { result in
            if case .failure = result, addresses.count > 1 {
                connect(loop: loop, trying: addresses.dropFirst(), from: sourceAddress, completion)
            } else {
                completion(result)
            }
        }
    }

    private func start(to remote: SocketAddress, from sourceAddress: String?,
                       _ completion: @escaping (Result<TCPConnection, UVError>) -> Void) {
        do {
            try startConnect(remote: remote, sourceAddress: sourceAddress, completion)
        } catch {
            close()
            loop.runSoon { completion(.failure(error)) }
        }
    }

    /// The completion rides on the connect request (its `data`), not on the connection: only an
    /// outgoing connection ever has one, and the broker holds a connection per device.
    private func startConnect(
        remote: SocketAddress, sourceAddress: String?, _ completion: @escaping (Result<TCPConnection, UVError>) -> Void
    ) throws(UVError) {
        if let sourceAddress {
            let local = try SocketAddress(host: sourceAddress, port: 0)
            try local.withSockAddr { (address) throws(UVError) in
                try uvCheck(ls_tcp_bind(tcp, address, 0), "uv_tcp_bind")
            }
        }
        let request = UnsafeMutablePointer<uv_connect_t>.allocate(capacity: 1)
        let box = Unmanaged.passRetained(ConnectCompletion(completion))
        request.pointee.data = box.toOpaque()
        do {
            try remote.withSockAddr { (address) throws(UVError) in
                try uvCheck(uv_tcp_connect(request, tcp, address) { request, status in
                    let request = request!
                    let data = uv_handle_get_data(ls_handle(request.pointee.handle))!
                    let connection = Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue()
                    let completion = Unmanaged<ConnectCompletion>.fromOpaque(request.pointee.data).takeRetainedValue()
                    request.deallocate()
                    connection.didConnect(status: status, completion.run)
                }, "uv_tcp_connect")
            }
        } catch {
            box.release()
            request.deallocate()
            throw error
        }
    }

    /// libuv calls a connect request's callback exactly once, with ECANCELED if the handle closed.
    private func didConnect(status: Int32, _ completion: (Result<TCPConnection, UVError>) -> Void) {
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

/// A connect's completion, kept by its uv_connect_t until the callback.
private final class ConnectCompletion {
    let run: (Result<TCPConnection, UVError>) -> Void

    init(_ run: @escaping (Result<TCPConnection, UVError>) -> Void) {
        self.run = run
    }
}
