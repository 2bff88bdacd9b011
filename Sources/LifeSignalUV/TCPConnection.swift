import CLibUV
import Synchronization

/// Process-wide connection ids.
private let connectionIDs = Atomic<UInt64>(0)

/// One TCP stream. Loop thread only.
public final class TCPConnection: LoopHandleOwner {
    public let loop: EventLoop
    /// Unique in the process.
    public let id: UInt64
    /// Strong; set to nil by the connection after `connectionDidClose`.
    public var delegate: TCPConnectionDelegate?

    let rawHandle: UnsafeMutableRawPointer
    private var closeError: UVError?

    // Write path (TCPConnection+Write.swift).
    /// Bytes accepted by write() and not yet given to the kernel or to an in-flight uv_write.
    var outbound: [UInt8] = []
    /// Bytes held by the in-flight uv_write, if any.
    var inFlightBytes = 0
    var isDirty = false
    /// Flushes since the last sweep (`startBusyPeriod`), saturating.
    var flushesThisPeriod: UInt8 = 0
    var closeWhenFlushed = false
    /// uv_try_write and uv_write calls made by flushes, wrapping; tests use it to show writes are
    /// batched. 32 bits, beside the flags above, in the room they leave before the next 8-byte
    /// field (a connection per device).
    var flushSyscallCount: UInt32 = 0

    /// A fresh, unconnected handle; the caller accepts or connects it.
    init(loop: EventLoop) throws(UVError) {
        self.loop = loop
        self.id = connectionIDs.wrappingAdd(1, ordering: .relaxed).newValue
        self.rawHandle = allocateHandle(uv_tcp_t.self)
        try adoptHandle(uv_tcp_init(loop.uvLoop, ls_tcp(rawHandle)), "uv_tcp_init")
        loop.liveConnections += 1
        loop.openConnectionCount += 1
    }

    var tcp: UnsafeMutablePointer<uv_tcp_t> { ls_tcp(rawHandle) }
    var stream: UnsafeMutablePointer<uv_stream_t> { ls_stream(rawHandle) }

    /// The peer's address without its port; nil until established (or if it could not be read).
    /// Read once the connection is established, so it survives the close (where it is most
    /// often logged).
    public private(set) var remoteIP: IPAddress?
    private var remotePort: UInt16 = 0
    /// Beside `remotePort`, in the padding after `remoteIP` (a connection per device).
    var handleState = HandleState.open

    /// "127.0.0.1:54321" or "[::1]:54321", made from `remoteIP` when asked: it is only logged, so
    /// an idle connection does not keep the text (a heap block of 62 bytes each, heaptrack).
    public var remoteAddress: String {
        guard let remoteIP else { return "unknown" }
        return SocketAddress(ip: remoteIP, port: remotePort).description
    }

    /// Called when the connection is established (accepted or connected).
    func didEstablish() {
        setNoDelay(true)
        guard handleState == .open,
              let address = try? SocketAddress.query(tcp, "uv_tcp_getpeername", uv_tcp_getpeername)
        else { return }
        remoteIP = address.ipAddress
        remotePort = UInt16(truncatingIfNeeded: address.port)
    }

    public var isClosed: Bool { handleState != .open }

    public func setNoDelay(_ enabled: Bool) {
        guard handleState == .open else { return }
        // Fails only on a socket that is already dead, which the next read or write reports.
        uv_tcp_nodelay(tcp, enabled ? 1 : 0)
    }

    public func startReading() {
        guard handleState == .open else { return }
        let rc = uv_read_start(stream, { handle, _, buffer in
            // One shared buffer per loop: each read is handed to the delegate before the next one.
            let loop = EventLoop.owning(UnsafeMutableRawPointer(handle))
            buffer!.pointee = uv_buf_init(loop.readBuffer.assumingMemoryBound(to: CChar.self), UInt32(EventLoop.readBufferSize))
        }, { stream, nread, buffer in
            let data = uv_handle_get_data(ls_handle(stream!))!
            Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue().didRead(nread, buffer!.pointee.base)
        })
        if rc < 0 { close(error: UVError(code: rc, operation: "uv_read_start")) }
    }

    public func stopReading() {
        guard handleState == .open else { return }
        uv_read_stop(stream)
    }

    private func didRead(_ nread: Int, _ base: UnsafeMutablePointer<CChar>?) {
        if nread > 0 {
            delegate?.connection(self, didRead: UnsafeRawBufferPointer(start: base, count: nread))
        } else if nread < 0 {
            let code = Int32(nread)
            close(error: code == UV_EOF.rawValue ? nil : UVError(code: code, operation: "uv_read"))
        }
        // nread == 0 is EAGAIN: nothing to do.
    }

    /// Close now, dropping unsent output.
    public func close() {
        close(error: nil)
    }

    /// Stop reading, send everything queued, then close. The close waits for the last uv_write
    /// callback, because uv_close cancels pending writes. (As with any close, input the peer sent
    /// and we never read makes the kernel answer with RST instead of FIN.)
    public func closeAfterFlush() {
        guard handleState == .open else { return }
        stopReading()
        closeWhenFlushed = true
        closeIfFlushed()
    }

    /// Tries to hand `bytes` to the kernel at once (one uv_try_write, best effort), then closes:
    /// the descriptor is free when this returns, for refusing a connection while the process is
    /// short of them.
    public func writeNowAndClose(_ bytes: [UInt8]) {
        guard handleState == .open else { return }
        if !bytes.isEmpty && outbound.isEmpty && inFlightBytes == 0 {
            _ = bytes.withUnsafeBytes { raw in
                var buffer = uv_buf_init(
                    UnsafeMutableRawPointer(mutating: raw.baseAddress!).assumingMemoryBound(to: CChar.self),
                    UInt32(raw.count))
                return uv_try_write(stream, &buffer, 1)
            }
        }
        close()
    }

    func close(error: UVError?) {
        guard handleState == .open else { return }
        closeError = error
        outbound = []
        closeHandle()  // cancels an in-flight uv_write; its callback still runs and frees it
        loop.openConnectionCount -= 1
    }

    func handleDidClose() {
        delegate?.connectionDidClose(self, error: closeError)
        delegate = nil  // usually the delegate holds the connection: break the cycle
        loop.connectionDidClose()
    }

    func beginGracefulShutdown() {
        closeAfterFlush()
    }
}
