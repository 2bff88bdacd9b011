/// A value many consumers follow: each stream starts with the current value (when there is
/// one) and gets every change after it; a consumer that falls behind gets the newest. Cancelling
/// a stream stops only it. Isolated to its owner (the client actor).
final class ValueBroadcast<Value: Sendable & Equatable> {
    private(set) var current: Value?
    private var consumers: [UInt64: AsyncStream<Value>.Continuation] = [:]
    private var nextConsumer: UInt64 = 0

    init(_ current: Value? = nil) {
        self.current = current
    }

    /// A new stream; `onEnd` is told its id when it is cancelled or finished, to forget it.
    func stream(onEnd: @escaping @Sendable (UInt64) -> Void) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream.makeStream(of: Value.self, bufferingPolicy: .bufferingNewest(1))
        let id = nextConsumer
        nextConsumer += 1
        consumers[id] = continuation
        if let current { continuation.yield(current) }
        continuation.onTermination = { _ in onEnd(id) }
        return stream
    }

    func forget(_ id: UInt64) { consumers[id] = nil }

    /// Tells every consumer, unless nothing changed.
    func update(_ value: Value) {
        guard value != current else { return }
        current = value
        for consumer in consumers.values { consumer.yield(value) }
    }

    func finish() {
        for consumer in consumers.values { consumer.finish() }
        consumers = [:]
    }
}
