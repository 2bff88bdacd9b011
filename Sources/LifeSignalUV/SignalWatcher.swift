import CLibUV
#if canImport(Glibc)
import Glibc
#endif

/// Calls back on the loop thread when the process receives `signal`. Loop thread only.
/// Unref'd: a watcher alone does not keep the loop running.
public final class SignalWatcher: LoopHandleOwner {
    let loop: EventLoop
    let rawHandle: UnsafeMutableRawPointer
    var handleState = HandleState.open
    private var callback: (() -> Void)?

    public init(loop: EventLoop, signal: Int32, _ callback: @escaping () -> Void) throws {
        self.loop = loop
        self.rawHandle = allocateHandle(uv_signal_t.self)
        self.callback = callback
        try adoptHandle(uv_signal_init(loop.uvLoop, ls_signal(rawHandle)), "uv_signal_init")
        do {
            try uvCheck(uv_signal_start(ls_signal(rawHandle), { handle, _ in
                let data = uv_handle_get_data(ls_handle(handle!))!
                Unmanaged<SignalWatcher>.fromOpaque(data).takeUnretainedValue().callback?()
            }, signal), "uv_signal_start")
        } catch {
            close()
            throw error
        }
        uv_unref(uvHandle)
        Self.unblock([signal])
    }

    /// A process inherits its parent's signal mask (a parent spawning from a Dispatch worker
    /// thread passes every signal blocked); a signal the process handles must be let through.
    public static func unblock(_ signals: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for signal in signals { sigaddset(&set, signal) }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    public func close() {
        closeHandle()
    }

    func handleDidClose() {
        callback = nil
    }

    func beginGracefulShutdown() {}
}
