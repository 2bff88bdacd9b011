/// An actor that runs on an `EventLoop`: its executor is the loop, so on the loop's thread it is
/// isolated by construction.
public protocol LoopIsolated: Actor {
    nonisolated var loop: EventLoop { get }
}

extension LoopIsolated {
    public nonisolated var unownedExecutor: UnownedSerialExecutor { loop.asUnownedSerialExecutor() }

    /// `assumeIsolated`, checked by comparing thread ids. From a loop callback, where no executor
    /// is current, the runtime's `assumeIsolated` asks the executor through its dynamic checks
    /// (`isIsolatingCurrentContext`) at a cost of about 600 instructions, and a ping makes some
    /// 30 such calls. The same check, made directly, then runs `operation` as the runtime does
    /// once its check has passed.
    @inlinable
    public nonisolated func onLoop<T>(_ operation: (isolated Self) throws -> T) rethrows -> T {
        loop.preconditionInLoopThread()
        return try withoutActuallyEscaping(operation) { operation in
            try unsafeBitCast(operation, to: ((Self) throws -> T).self)(self)
        }
    }
}
