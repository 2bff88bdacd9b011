/// An actor that runs on an `EventLoop`: its executor is the loop, so on the loop's thread it is
/// isolated by construction.
public protocol LoopIsolated: Actor {
    nonisolated var loop: EventLoop { get }
}

extension LoopIsolated {
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// Runs `operation` isolated to this actor from a callback of its loop (a socket read, a
    /// timer, a store completion brought back to the loop): the standard `assumeIsolated`, which
    /// asks the loop (`EventLoop.isIsolatingCurrentContext`) and traps off its thread. Counted, so
    /// that a test can hold what a request costs in entries (`EventLoop.actorEntries`).
    @inlinable
    public nonisolated func onLoop<T: Sendable>(_ operation: (isolated Self) throws -> T) rethrows -> T {
        loop.enterActor()
        return try assumeIsolated(operation)
    }
}
