/// The executor's FIFO, kept under the loop's lock: executor jobs and `execute` closures share one
/// queue so they run in submission order.
struct LoopJobQueue: Sendable {
    enum Item: Sendable {
        case job(UnownedJob)
        case work(@Sendable () -> Void)
    }

    var items: [Item] = []
    /// Set when shutdown closes the async handle: nothing could wake the loop any more.
    var isClosed = false
}
