import CLibUV

/// A libuv timer. Loop thread only. Open until `close()` (or loop shutdown): dropping the last
/// reference does not stop it, because the handle itself holds one.
public final class Timer: LoopHandleOwner {
    let loop: EventLoop
    let rawHandle: UnsafeMutableRawPointer
    var handleState = HandleState.open
    private var callback: (() -> Void)?

    public init(loop: EventLoop) throws {
        self.loop = loop
        self.rawHandle = allocateHandle(uv_timer_t.self)
        try adoptHandle(uv_timer_init(loop.uvLoop, ls_timer(rawHandle)), "uv_timer_init")
    }

    /// (Re)starts the timer; `repeatMs` 0 means one shot. Replaces any previous callback.
    public func start(afterMs: UInt64, repeatMs: UInt64 = 0, _ callback: @escaping () -> Void) {
        guard handleState == .open else { return }
        self.callback = callback
        uv_timer_start(ls_timer(rawHandle), { timer in
            let data = uv_handle_get_data(ls_handle(timer!))!
            Unmanaged<Timer>.fromOpaque(data).takeUnretainedValue().callback?()
        }, afterMs, repeatMs)
    }

    public func stop() {
        guard handleState == .open else { return }
        uv_timer_stop(ls_timer(rawHandle))
    }

    public func close() {
        closeHandle()
    }

    /// The timer no longer keeps the loop alive.
    public func unref() {
        guard handleState == .open else { return }
        uv_unref(uvHandle)
    }

    func handleDidClose() {
        callback = nil  // breaks cycles through closures that capture the timer
    }

    func beginGracefulShutdown() {}
}
