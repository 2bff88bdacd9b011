import LifeSignalProtocol
import LifeSignalUV

extension Broker {
    /// Makes room for a new connection under `maxConnections`. At the limit the oldest connection
    /// still awaiting `hello` is closed for it, so connections that never say hello cannot lock
    /// registered devices out; with none, the new one is refused. Either way the descriptor is
    /// released at once (accepted, answered `overloaded`, closed), so the kernel's backlog never
    /// fills with connections nobody will accept.
    func admit(_ tcp: TCPConnection) -> Bool {
        // Sockets open besides this one; a connection closed this iteration no longer counts,
        // though the broker hears of it only at the iteration's end.
        guard loop.openConnectionCount - 1 >= maxConnections else { return true }
        if connectionOverload.begin(nowMs: loop.cachedNowMs) {
            logger.warning("overload begins: at max-connections; new connections replace ones awaiting hello or are refused",
                           metadata: ["lifesignal.connections.max": .stringConvertible(maxConnections)])
        }
        connectionOverload.countRefusal()
        if let oldest = oldestAwaitingHello() {
            logThrottled(.connectionEvicted, "closing a connection awaiting hello to make room", [
                "lifesignal.conn": .stringConvertible(oldest.id), "lifesignal.peer": "\(oldest.tcp.remoteAddress)",
                "lifesignal.connections": .stringConvertible(loop.openConnectionCount - 1),
            ])
            oldest.closeNow(Outbound.error(rid: nil, Self.evicted))
            return true
        }
        logThrottled(.connectionRefused, "refusing a connection: at max-connections", [
            "lifesignal.peer": "\(tcp.remoteAddress)", "lifesignal.connections": .stringConvertible(loop.openConnectionCount - 1),
        ])
        tcp.writeNowAndClose(Outbound.error(rid: nil, Self.refused))
        return false
    }

    /// The connection awaiting `hello` that came first, if any; drops the queue's stale ids.
    private func oldestAwaitingHello() -> ClientConnection? {
        while let id = helloQueue.popFirst() {
            if let connection = connections[id], case .awaitingHello = connection.phase { return connection }
        }
        return nil
    }

    /// Keeps the hello queue within twice the connections (stale ids pile up as devices say hello).
    func compactHelloQueueIfNeeded() {
        guard helloQueue.count > 2 * connections.count + 64 else { return }
        helloQueue.removeAll { id in
            guard let connection = connections[id], case .awaitingHello = connection.phase else { return true }
            return false
        }
    }

    private static let evicted = ProtocolError(.overloaded, "the broker is full; connections awaiting hello make room")
    private static let refused = ProtocolError(.overloaded, "the broker is at its connection limit")
}
