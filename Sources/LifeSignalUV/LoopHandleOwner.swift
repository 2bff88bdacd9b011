import CLibUV

enum HandleState {
    case open
    case closing
    case closed
}

/// A class that owns one libuv handle. The handle memory is allocated by the owner and freed only
/// in the uv_close callback; `handle.data` holds a retain on the owner from a successful init until
/// that callback, so libuv never points at a dead object and the object never outlives its memory
/// unknowingly.
protocol LoopHandleOwner: AnyObject {
    var loop: EventLoop { get }
    var rawHandle: UnsafeMutableRawPointer { get }
    var handleState: HandleState { get set }
    /// Called once from the close callback, after the handle memory has been freed.
    func handleDidClose()
    /// First phase of `EventLoop.shutdownGracefully`: listeners close, connections flush, others wait.
    func beginGracefulShutdown()
    /// Close now; used for whatever is still open when shutdown ends.
    func close()
}

/// Zeroed memory for one handle of type `H`.
func allocateHandle<H>(_: H.Type) -> UnsafeMutableRawPointer {
    let handle = UnsafeMutablePointer<H>.allocate(capacity: 1)
    let raw = UnsafeMutableRawPointer(handle)
    raw.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<H>.size)
    return raw
}

extension LoopHandleOwner {
    var uvHandle: UnsafeMutablePointer<uv_handle_t> { ls_handle(rawHandle) }

    /// Finishes opening with the result of the uv_*_init call. On failure libuv never registered
    /// the handle, so its memory is freed here; on success the handle takes a retain on `self`.
    func adoptHandle(_ initResult: @autoclosure () -> Int32, _ operation: StaticString) throws(UVError) {
        do throws(UVError) {
            guard loop.acceptsHandles else { throw UVError(code: UV_EINVAL.rawValue, operation: operation.description) }
            try uvCheck(initResult(), operation)
        } catch {
            handleState = .closed
            rawHandle.deallocate()
            throw error
        }
        uv_handle_set_data(uvHandle, Unmanaged<AnyObject>.passRetained(self).toOpaque())
    }

    /// Idempotent; the memory and the retain go away in the close callback.
    func closeHandle() {
        guard handleState == .open else { return }
        handleState = .closing
        uv_close(uvHandle) { handle in
            guard let handle, let data = uv_handle_get_data(handle) else { return }
            let owner = Unmanaged<AnyObject>.fromOpaque(data).takeRetainedValue() as! any LoopHandleOwner
            owner.handleState = .closed
            UnsafeMutableRawPointer(handle).deallocate()
            owner.handleDidClose()
        }
    }
}

extension EventLoop {
    /// Every handle owner whose handle is not yet closing (internal async/prepare handles excluded).
    func openHandleOwners() -> [any LoopHandleOwner] {
        var owners: [any LoopHandleOwner] = []
        withUnsafeMutablePointer(to: &owners) { list in
            uv_walk(uvLoop, { handle, arg in
                guard let handle, let arg, uv_is_closing(handle) == 0 else { return }
                let type = uv_handle_get_type(handle)
                guard type != UV_ASYNC, type != UV_PREPARE, let data = uv_handle_get_data(handle) else { return }
                let owner = Unmanaged<AnyObject>.fromOpaque(data).takeUnretainedValue() as! any LoopHandleOwner
                arg.assumingMemoryBound(to: [any LoopHandleOwner].self).pointee.append(owner)
            }, list)
        }
        return owners
    }
}

extension EventLoop {
    /// Listeners open on this loop (not closing): what a test checks a stopped server no longer
    /// holds, without asking the OS about a port that another listener may have taken since.
    /// Loop thread only.
    public var openListenerCount: Int {
        preconditionInLoopThread()
        return openHandleOwners().count { $0 is TCPListener }
    }
}
