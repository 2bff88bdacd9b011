import CLibUV

/// Host names for outgoing connections, through libuv's `uv_getaddrinfo`: the lookup runs on
/// libuv's thread pool, so the loop never blocks on DNS.
enum NameResolver {
    private final class Request {
        let completion: (Result<[SocketAddress], UVError>) -> Void
        init(_ completion: @escaping (Result<[SocketAddress], UVError>) -> Void) { self.completion = completion }
    }

    /// The TCP addresses of `host` in the resolver's order; the completion runs on the loop thread.
    static func resolve(loop: EventLoop, host: String, port: Int,
                        _ completion: @escaping (Result<[SocketAddress], UVError>) -> Void) {
        let request = UnsafeMutablePointer<uv_getaddrinfo_t>.allocate(capacity: 1)
        let context = Unmanaged.passRetained(Request(completion))
        uv_req_set_data(ls_req(request), context.toOpaque())
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        let status = uv_getaddrinfo(loop.uvLoop, request, { request, status, result in
            let request = request!
            let context = Unmanaged<Request>.fromOpaque(uv_req_get_data(ls_req(request))!)
            request.deallocate()
            var addresses: [SocketAddress] = []
            var entry = result
            while let current = entry {
                if let address = current.pointee.ai_addr {
                    var storage = sockaddr_storage()
                    withUnsafeMutableBytes(of: &storage) { target in
                        target.copyMemory(from: UnsafeRawBufferPointer(start: address,
                                                                       count: Int(current.pointee.ai_addrlen)))
                    }
                    addresses.append(SocketAddress(storage: storage))
                }
                entry = current.pointee.ai_next
            }
            uv_freeaddrinfo(result)
            let completion = context.takeRetainedValue().completion
            if status < 0 || addresses.isEmpty {
                completion(.failure(UVError(code: status < 0 ? status : UV_EAI_NONAME.rawValue, operation: "uv_getaddrinfo")))
            } else {
                completion(.success(addresses))
            }
        }, host, String(port), &hints)
        if status < 0 {
            context.release()
            request.deallocate()
            loop.runSoon { completion(.failure(UVError(code: status, operation: "uv_getaddrinfo"))) }
        }
    }
}
