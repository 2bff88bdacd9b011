import CLibUV
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A libuv loop that is also a SerialExecutor: actors may declare
/// `nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }`.
///
/// Everything except `execute`, `shutdownGracefully`, `monotonicNowMs` and the executor entry points
/// must be used on the loop thread (or before `run()` starts).
public final class EventLoop: SerialExecutor, @unchecked Sendable {
    static let readBufferSize = 64 * 1024

    let uvLoop: UnsafeMutablePointer<uv_loop_t>
    /// Wakes the loop for `execute`/`enqueue`; ref'd, so it keeps `run()` going until shutdown closes it.
    let asyncHandle: UnsafeMutablePointer<uv_async_t>
    /// Flushes dirty connections once per iteration, before the loop blocks; unref'd.
    let prepareHandle: UnsafeMutablePointer<uv_prepare_t>
    /// The one read buffer of the loop: read callbacks are handled synchronously, so it is never shared.
    let readBuffer: UnsafeMutableRawPointer

    // Cross-thread state.
    let jobs = Locked(LoopJobQueue())
    private let loopThread = Atomic<UInt>(0)
    private let runState = Atomic<Int>(RunState.idle.rawValue)

    // Loop-thread state.
    var spareJobs: [LoopJobQueue.Item] = []
    var dirtyConnections: [TCPConnection] = []
    var soonWork: [() -> Void] = []
    var shutdownPhase = ShutdownPhase.running
    var shutdownHooks: [() -> Void] = []
    var liveConnections = 0
    /// TCP connections whose socket is open: made and not yet closed. uv_close releases the
    /// descriptor at once, while the close callback comes at the end of the iteration, so this
    /// is the count of descriptors they hold, for limits on them. Loop thread only.
    public internal(set) var openConnectionCount = 0
    var flushTimer: Timer?
    /// The async and prepare handles' memory is freed by their close callback; never touch them after.
    var internalHandlesOpen = true
    /// `iterationNowNs`'s reading; 0 until the first use after the loop last blocked.
    @exclusivity(unchecked) var iterationClockNs: UInt64 = 0

    enum RunState: Int {
        case idle, running, finished, leaked
    }

    public init() throws {
        let loop = UnsafeMutablePointer<uv_loop_t>.allocate(capacity: 1)
        do {
            try uvCheck(uv_loop_init(loop), "uv_loop_init")
        } catch {
            loop.deallocate()
            throw error
        }
        let async = UnsafeMutablePointer<uv_async_t>.allocate(capacity: 1)
        do {
            try uvCheck(uv_async_init(loop, async) { handle in
                EventLoop.owning(handle).runQueuedJobs()
            }, "uv_async_init")
        } catch {
            // Not registered with the loop on failure, so both can go right away.
            async.deallocate()
            uv_loop_close(loop)
            loop.deallocate()
            throw error
        }
        let prepare = UnsafeMutablePointer<uv_prepare_t>.allocate(capacity: 1)
        uv_prepare_init(loop, prepare)
        uv_prepare_start(prepare) { handle in
            EventLoop.owning(handle).prepareTurn()
        }
        uv_unref(ls_handle(prepare))

        self.uvLoop = loop
        self.asyncHandle = async
        self.prepareHandle = prepare
        self.readBuffer = UnsafeMutableRawPointer.allocate(byteCount: Self.readBufferSize, alignment: 16)
        // Unretained: the loop outlives its handles (every wrapper holds the loop strongly).
        uv_loop_set_data(loop, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit {
        switch RunState(rawValue: runState.load(ordering: .acquiring))! {
        case .idle:
            // Never ran: only the internal handles exist (wrappers keep the loop alive).
            closeInternalHandles()
            uv_run(uvLoop, UV_RUN_DEFAULT)
            if uv_loop_close(uvLoop) == 0 { uvLoop.deallocate() }
        case .running, .leaked:
            break  // uv_loop_close failed: leaking beats freeing memory libuv still uses
        case .finished:
            break  // freed at the end of run()
        }
        readBuffer.deallocate()
    }

    /// The EventLoop whose uv_loop_t a handle belongs to.
    @inline(__always)
    static func owning(_ handle: UnsafeMutableRawPointer?) -> EventLoop {
        let uvLoop = ls_handle(handle!).pointee.loop!
        return Unmanaged<EventLoop>.fromOpaque(uv_loop_get_data(uvLoop)!).takeUnretainedValue()
    }

    /// Runs the loop on the calling thread (which becomes the loop thread) until `shutdownGracefully`
    /// completes; returns after every handle is closed; throws if uv_loop_close does not return 0.
    public func run() throws {
        let (claimed, _) = runState.compareExchange(
            expected: RunState.idle.rawValue, desired: RunState.running.rawValue, ordering: .acquiringAndReleasing)
        precondition(claimed, "EventLoop.run() may be called only once")
        loopThread.store(currentThreadID(), ordering: .releasing)
        uv_run(uvLoop, UV_RUN_DEFAULT)
        // Safety net: anything opened while shutdown was closing handles (for example from a
        // delegate callback) would make uv_loop_close fail.
        var rounds = 0
        while rounds < 8 && closeEverythingStillOpen() {
            uv_run(uvLoop, UV_RUN_DEFAULT)
            rounds += 1
        }
        let result = uv_loop_close(uvLoop)
        loopThread.store(0, ordering: .releasing)
        if result != 0 {
            runState.store(RunState.leaked.rawValue, ordering: .releasing)
            try uvCheck(result, "uv_loop_close")
        }
        uvLoop.deallocate()
        runState.store(RunState.finished.rawValue, ordering: .releasing)
    }

    /// False once `run()` has returned: the uv_loop_t is gone and no handle may be opened on it.
    var acceptsHandles: Bool {
        let state = runState.load(ordering: .acquiring)
        return state == RunState.idle.rawValue || state == RunState.running.rawValue
    }

    public var isInLoopThread: Bool {
        loopThread.load(ordering: .acquiring) == currentThreadID()
    }

    public func preconditionInLoopThread() {
        precondition(isInLoopThread, "not on the EventLoop thread")
    }

    /// How many times an actor on this loop was entered with `onLoop`: what a request costs in
    /// hops between actors, a figure for benchmarks and tests. Loop thread only.
    public private(set) var actorEntries: UInt64 = 0

    /// Counts one `onLoop`, after checking the thread.
    @usableFromInline
    func enterActor() {
        preconditionInLoopThread()
        actorEntries &+= 1
    }

    /// uv_now: the loop's millisecond clock, cached at the start of each iteration. Loop thread only.
    public var cachedNowMs: UInt64 { uv_now(uvLoop) }

    /// `MonotonicClock.nowNs()` read once per iteration: at its first use after the loop last
    /// blocked, then the same for every callback until it blocks again. Stamping each request with
    /// it costs no clock reading per request (21 ns each here, 3% of a keepalive's broker CPU).
    /// Loop thread only.
    public var iterationNowNs: UInt64 {
        if iterationClockNs == 0 { iterationClockNs = MonotonicClock.nowNs() }
        return iterationClockNs
    }

    /// A fresh monotonic reading in milliseconds, on the same clock as `cachedNowMs`. Any thread.
    public func monotonicNowMs() -> UInt64 { uv_hrtime() / 1_000_000 }

    /// Closes the async and prepare handles (their memory has no owner object, so the callback just frees it).
    func closeInternalHandles() {
        guard internalHandlesOpen else { return }
        internalHandlesOpen = false
        for handle in [ls_handle(asyncHandle), ls_handle(prepareHandle)] {
            uv_close(handle) { handle in UnsafeMutableRawPointer(handle)?.deallocate() }
        }
    }
}

/// pthread_self as an integer, so the loop thread can be kept in an Atomic.
@inline(__always)
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    return UInt(bitPattern: pthread_self())
    #else
    return UInt(pthread_self())
    #endif
}
