import CLibUV

extension EventLoop {
    /// Thread-safe. Runs `work` on the loop thread, in submission order, in a later turn of the loop.
    /// False when the loop has shut down: then `work` never runs.
    @discardableResult
    public func execute(_ work: @escaping @Sendable () -> Void) -> Bool {
        submit(.work(work))
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        submit(.job(UnownedJob(job)))
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Called by `assumeIsolated` from loop callbacks, where no executor is current.
    public func checkIsolated() {
        precondition(isInLoopThread, "expected to run on the EventLoop thread")
    }

    /// The non-crashing form of `checkIsolated`, preferred by the runtime where available.
    public func isIsolatingCurrentContext() -> Bool? {
        isInLoopThread
    }

    /// False when the loop has shut down: nothing would ever run `item`.
    @discardableResult
    func submit(_ item: LoopJobQueue.Item) -> Bool {
        jobs.withLock { queue in
            guard !queue.isClosed else { return false }
            queue.items.append(item)
            // One wake per batch. Sent under the lock so shutdown cannot free the handle in between.
            if queue.items.count == 1 {
                uv_async_send(asyncHandle)
            }
            return true
        }
    }

    /// Async callback: swap the queue out under the lock, run it outside.
    func runQueuedJobs() {
        // Trade the (uniquely held, empty) spare array for the queue, so appends never reallocate.
        var batch: [LoopJobQueue.Item] = []
        swap(&batch, &spareJobs)
        jobs.withLock { queue in swap(&queue.items, &batch) }
        run(batch)
        batch.removeAll(keepingCapacity: true)
        spareJobs = batch
    }

    /// Runs everything queued, including what those jobs queue (a bounded number of rounds, so a
    /// job that always requeues cannot stall shutdown), then refuses further submissions. Work
    /// submitted after that is dropped: no thread would ever run it.
    func drainAndCloseJobQueue() {
        for round in 0... {
            let batch: [LoopJobQueue.Item] = jobs.withLock { queue in
                if queue.items.isEmpty || round == 64 {
                    queue.isClosed = true
                    queue.items = []
                    return []
                }
                defer { queue.items = [] }
                return queue.items
            }
            if batch.isEmpty { return }
            run(batch)
        }
    }

    private func run(_ batch: [LoopJobQueue.Item]) {
        for item in batch {
            switch item {
            case .job(let job):
                job.runSynchronously(on: asUnownedSerialExecutor())
            case .work(let work):
                work()
            }
        }
    }
}
