/// Changes of a value many consumers follow: each stream starts with the value its owner
/// derives when it is asked for, then gets every change after it; a consumer that falls behind
/// gets the newest. Cancelling a stream stops only it. While nobody follows, nothing is derived
/// or compared. Isolated to its owner (the client actor).
final class ValueBroadcast<Value: Sendable & Equatable> {
    /// What the consumers were told last: only to tell them changes, never read as the value.
    private var lastSent: Value?
    private var consumers: [UInt64: AsyncStream<Value>.Continuation] = [:]
    private var nextConsumer: UInt64 = 0

    /// A new stream starting with `current`; `onEnd` is told its id when it is cancelled or
    /// finished, to forget it.
    func stream(startingWith current: Value?, onEnd: @escaping @Sendable (UInt64) -> Void) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextConsumer
        nextConsumer += 1
        consumers[id] = continuation
        if let current {
            continuation.yield(current)
            lastSent = current
        }
        continuation.onTermination = { _ in onEnd(id) }
        return stream
    }

    func forget(_ id: UInt64) { consumers[id] = nil }

    /// Tells every consumer the value, unless it did not change; derives it only if followed.
    func update(_ value: @autoclosure () -> Value) {
        guard !consumers.isEmpty else { return }
        let value = value()
        guard value != lastSent else { return }
        lastSent = value
        for consumer in consumers.values { consumer.yield(value) }
    }

    func finish() {
        for consumer in consumers.values { consumer.finish() }
        consumers = [:]
    }
}
