/// An object that lives on one `EventLoop`'s thread and is used only there: the broker's registry,
/// a connection. Unlike a `LoopIsolated` actor, calling into it is a plain call, neither an actor
/// entry nor a hop; the thread is checked at run time instead of by the compiler.
public protocol LoopConfined: AnyObject, Sendable {
    var loop: EventLoop { get }
}

extension LoopConfined {
    /// Runs `operation` with this object, from code on the loop's thread (checked).
    @inlinable
    public func onLoop<T>(_ operation: (Self) throws -> T) rethrows -> T {
        loop.preconditionInLoopThread()
        return try operation(self)
    }

    /// Runs `operation` with this object on the loop's thread, from any thread or task: at once
    /// on the loop's thread, else in a later turn of the loop.
    public func onLoopAsync<T: Sendable>(_ operation: @escaping @Sendable (Self) -> T) async -> T {
        if loop.isInLoopThread { return operation(self) }
        return await withCheckedContinuation { continuation in
            loop.execute { continuation.resume(returning: operation(self)) }
        }
    }
}
