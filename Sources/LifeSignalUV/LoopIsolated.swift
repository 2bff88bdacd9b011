/// An actor that runs on an `EventLoop`: its executor is the loop, so on the loop's thread it is
/// isolated by construction.
public protocol LoopIsolated: Actor {
    nonisolated var loop: EventLoop { get }
}

extension LoopIsolated {
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// `assumeIsolated`, checked by comparing thread ids, then `operation` run as a call from
    /// the actor's own isolation (`runIsolated`, reached through `runOnLoop`).
    ///
    /// The runtime's `assumeIsolated` costs far more from a loop callback: it asks the executor
    /// through its dynamic checks (`isIsolatingCurrentContext`), about 600 instructions, and it
    /// bit-casts the closure to drop the `isolated`, which makes the compiler move the closure's
    /// context and a reabstraction thunk to the heap: two allocations and about 650 more
    /// instructions per call. A ping makes some 40 such calls.
    @inlinable
    public nonisolated func onLoop<T>(_ operation: (isolated Self) throws -> T) rethrows -> T {
        loop.enterActor()
        return try runOnLoop(self, operation)
    }
}

/// `LoopIsolation.runIsolated` declared without the `isolated` on its actor: the same symbol and
/// the same calling convention, callable from the loop's nonisolated callbacks. Only `onLoop`
/// calls it, after checking the thread.
@usableFromInline
@_silgen_name("lifesignal_run_isolated")
func runOnLoop<A: Actor, T>(_ actor: A, _ operation: (isolated A) throws -> T) rethrows -> T
