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
    /// on the loop's thread, else in a later turn of the loop. Throws `LoopStopped` when the loop
    /// has shut down, rather than waiting for a turn that will not come (an HTTP request that
    /// came as the broker stopped).
    public func onLoopAsync<T: Sendable>(_ operation: @escaping @Sendable (Self) -> T) async throws(LoopStopped) -> T {
        if loop.isInLoopThread { return operation(self) }
        let answer: Result<T, LoopStopped> = await withCheckedContinuation { continuation in
            let accepted = loop.execute { continuation.resume(returning: .success(operation(self))) }
            if !accepted { continuation.resume(returning: .failure(LoopStopped())) }
        }
        return try answer.get()
    }
}

/// The loop has shut down: nothing runs on it any more.
public struct LoopStopped: Error, CustomStringConvertible {
    public init() {}
    public var description: String { "the event loop has stopped" }
}
