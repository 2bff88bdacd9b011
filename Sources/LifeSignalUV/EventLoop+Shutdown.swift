import CLibUV

extension EventLoop {
    enum ShutdownPhase {
        case running
        /// Listeners closed, connections flushing; waiting for them or the flush timeout.
        case draining
        /// Every handle is being closed; `run()` returns once they are.
        case closing
    }

    /// Thread-safe. Graceful: runs the shutdown hooks, closes every listener, lets every connection
    /// flush what it has queued (at most `flushTimeoutMs`), closes every remaining handle, then
    /// `run()` returns.
    public func shutdownGracefully(flushTimeoutMs: UInt64 = 2000) {
        execute { self.beginShutdown(flushTimeoutMs: flushTimeoutMs) }
    }

    /// Loop thread only: `hook` runs first in shutdownGracefully (so the broker can send goodbyes).
    public func addShutdownHook(_ hook: @escaping () -> Void) {
        shutdownHooks.append(hook)
    }

    func beginShutdown(flushTimeoutMs: UInt64) {
        guard shutdownPhase == .running else { return }
        shutdownPhase = .draining
        let hooks = shutdownHooks
        shutdownHooks = []
        for hook in hooks { hook() }
        for owner in openHandleOwners() { owner.beginGracefulShutdown() }
        guard liveConnections > 0, let timer = try? Timer(loop: self) else {
            finishShutdown()
            return
        }
        timer.unref()
        timer.start(afterMs: flushTimeoutMs) { [unowned self] in self.finishShutdown() }
        flushTimer = timer
    }

    /// A connection's handle closed; the last one ends the drain.
    func connectionDidClose() {
        liveConnections -= 1
        if shutdownPhase == .draining && liveConnections == 0 {
            finishShutdown()
        }
    }

    func finishShutdown() {
        guard shutdownPhase == .draining else { return }
        shutdownPhase = .closing
        flushTimer = nil
        drainAndCloseJobQueue()
        closeEverythingStillOpen()
    }

    /// Closes every handle not yet closing, the loop's own ones last. Returns whether any was open.
    @discardableResult
    func closeEverythingStillOpen() -> Bool {
        // Pending failure reports and writes still get their turn.
        prepareTurn()
        let owners = openHandleOwners()
        for owner in owners { owner.close() }
        let internalOpen = internalHandlesOpen
        if internalOpen {
            // Runs anything queued since, then no wake-up can reach the async handle again.
            drainAndCloseJobQueue()
            closeInternalHandles()
        }
        dirtyConnections = []
        soonWork = []
        return !owners.isEmpty || internalOpen
    }
}
