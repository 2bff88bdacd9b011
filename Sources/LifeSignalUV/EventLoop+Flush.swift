extension EventLoop {
    /// Loop thread only. Queues `connection` for the next flush (once per iteration).
    func markDirty(_ connection: TCPConnection) {
        dirtyConnections.append(connection)
    }

    /// Loop thread only. Runs `work` before the loop next blocks; used to report failures
    /// asynchronously instead of calling completions re-entrantly.
    func runSoon(_ work: @escaping () -> Void) {
        soonWork.append(work)
    }

    /// Prepare callback: runs just before the loop computes its poll timeout, so anything written
    /// during this iteration leaves in one syscall per connection. Repeats until quiet because
    /// flushing can close connections whose delegates write elsewhere.
    func prepareTurn() {
        while !soonWork.isEmpty || !dirtyConnections.isEmpty {
            if !soonWork.isEmpty {
                let work = soonWork
                soonWork = []
                for item in work { item() }
            }
            if !dirtyConnections.isEmpty {
                let dirty = dirtyConnections
                dirtyConnections = []
                for connection in dirty { connection.flush() }
            }
        }
        // The loop may block next: the first callback after it reads the clock again.
        iterationClockNs = 0
    }
}
