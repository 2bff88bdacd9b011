import CLibUV

extension TCPConnection {
    /// Outbound capacity a connection keeps between flushes.
    static let retainedOutboundCapacity = 4 * 1024

    /// Appends to the outbound buffer; the loop flushes each dirty connection once per iteration
    /// (uv_try_write first, uv_write for the rest, which stays queued behind an in-flight write).
    public func write(_ bytes: UnsafeRawBufferPointer) {
        guard handleState == .open, !bytes.isEmpty else { return }
        let written = writeThrough(bytes)
        guard written < bytes.count else { return }
        outbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[written...]))
        scheduleFlush()
    }

    public func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { write($0) }
    }

    /// A connection that is not busy, with nothing queued, hands its bytes to the kernel at once
    /// (uv_try_write) instead of buffering them for the loop's flush: thousands of devices
    /// answered in one loop iteration (a burst of hellos) then need no buffer each, which would
    /// all be alive at once and stay resident. Busy connections keep one write per iteration.
    /// Returns how many bytes went.
    private func writeThrough(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard !isBusy, outbound.isEmpty, inFlightBytes == 0, !closeWhenFlushed else { return 0 }
        let written = tryWrite(bytes)
        return written > 0 ? Int(written) : 0
    }

    /// One uv_try_write of `bytes`, counted as a flush: what the kernel took, or an error code.
    private func tryWrite(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        flushSyscallCount &+= 1
        if flushesThisPeriod < .max { flushesThisPeriod += 1 }
        var buffer = uv_buf_init(
            UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: CChar.self)), UInt32(bytes.count))
        return uv_try_write(stream, &buffer, 1)
    }

    /// Lets `encode` append straight to the outbound buffer: a frame built in place, with no
    /// array of its own.
    public func write(encodedBy encode: (inout [UInt8]) -> Void) {
        guard handleState == .open else { return }
        let before = outbound.count
        encode(&outbound)
        if outbound.count > before { scheduleFlush() }
    }

    /// Bytes accepted by write() and not yet handed to the kernel (queued + in flight).
    public var bufferedBytes: Int { outbound.count + inFlightBytes }

    /// The outbound buffer's capacity: memory a connection holds between writes.
    public var outboundCapacity: Int { outbound.capacity }

    /// Starts a new period of `isBusy`, and gives back a buffer kept from the last one if nothing
    /// was written since. Called by a periodic sweep.
    public func startBusyPeriod() {
        if flushesThisPeriod == 0, outbound.isEmpty, outbound.capacity > 0 { outbound = [] }
        flushesThisPeriod = 0
    }

    /// Flushed more than once since the sweep: worth keeping a buffer for the next flush.
    private var isBusy: Bool { flushesThisPeriod > 1 }

    private func scheduleFlush() {
        guard !isDirty else { return }
        isDirty = true
        loop.markDirty(self)
    }

    /// Called by the loop's prepare handle: one uv_try_write, then one uv_write for the rest.
    func flush() {
        isDirty = false
        guard handleState == .open, inFlightBytes == 0, !outbound.isEmpty else { return }
        let written = outbound.withUnsafeBytes { tryWrite($0) }
        if written == UV_EAGAIN.rawValue {
            startWrite(from: 0)
        } else if written < 0 {
            close(error: UVError(code: written, operation: "uv_try_write"))
        } else {
            startWrite(from: Int(written))
        }
    }

    /// Hands outbound[offset...] to a uv_write whose request owns a copy of the bytes.
    private func startWrite(from offset: Int) {
        let count = outbound.count - offset
        if count > 0 {
            // One block: the uv_write_t, then the bytes; freed in the write callback.
            let headerSize = MemoryLayout<uv_write_t>.stride
            let block = UnsafeMutableRawPointer.allocate(
                byteCount: headerSize + count, alignment: MemoryLayout<uv_write_t>.alignment)
            let payload = block + headerSize
            outbound.withUnsafeBytes { bytes in
                payload.copyMemory(from: bytes.baseAddress! + offset, byteCount: count)
            }
            let request = block.bindMemory(to: uv_write_t.self, capacity: 1)
            var buffer = uv_buf_init(payload.assumingMemoryBound(to: CChar.self), UInt32(count))
            flushSyscallCount &+= 1
            let rc = uv_write(request, stream, &buffer, 1) { request, status in
                let request = request!
                let data = uv_handle_get_data(ls_handle(request.pointee.handle))!
                let connection = Unmanaged<TCPConnection>.fromOpaque(data).takeUnretainedValue()
                UnsafeMutableRawPointer(request).deallocate()
                connection.writeDidComplete(status: status)
            }
            if rc < 0 {
                block.deallocate()
                close(error: UVError(code: rc, operation: "uv_write"))
                return
            }
            inFlightBytes = count
        }
        // A busy connection reuses its few KiB; any other gives its buffer back at once, while the
        // next connection's can reuse the block. (Given back later, the blocks of thousands of idle
        // devices would be holes between live objects: free in malloc, still resident.)
        if !isBusy || outbound.capacity > Self.retainedOutboundCapacity {
            outbound = []
        } else {
            outbound.removeAll(keepingCapacity: true)
        }
        closeIfFlushed()
    }

    private func writeDidComplete(status: Int32) {
        inFlightBytes = 0
        // ECANCELED: the handle is closing; nothing more to do.
        guard handleState == .open else { return }
        if status < 0 {
            close(error: UVError(code: status, operation: "uv_write"))
        } else if !outbound.isEmpty {
            scheduleFlush()
        } else {
            closeIfFlushed()
        }
    }

    /// closeAfterFlush: close once nothing is queued and nothing is in flight.
    func closeIfFlushed() {
        if closeWhenFlushed && outbound.isEmpty && inFlightBytes == 0 {
            close(error: nil)
        }
    }
}
