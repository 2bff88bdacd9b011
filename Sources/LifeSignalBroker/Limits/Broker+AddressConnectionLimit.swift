import LifeSignalProtocol
import LifeSignalUV

extension Broker {
    /// At most `maxConnectionsPerAddress` connections from one source address (IPv6: one /64), so
    /// one host cannot take every place under `maxConnections`. A connection over it is answered
    /// `overloaded` and closed at once, as one over `maxConnections` is; checked first, so that it
    /// never makes another connection give up its place.
    func hasRoomForAddress(of tcp: TCPConnection) -> Bool {
        guard let address = tcp.remoteIP, !connectionsPerAddress.hasRoom(for: address) else { return true }
        logThrottled(.addressConnectionRefused, "refusing a connection: at max-connections-per-address", [
            "lifesignal.peer": "\(tcp.remoteAddress)", "lifesignal.connections": .stringConvertible(connectionsPerAddress.count(address)),
        ])
        tcp.writeNowAndClose(Outbound.error(rid: nil, Self.addressFull))
        return false
    }

    func countConnection(from tcp: TCPConnection) {
        if let address = tcp.remoteIP { connectionsPerAddress.opened(address) }
    }

    func uncountConnection(from tcp: TCPConnection) {
        if let address = tcp.remoteIP { connectionsPerAddress.closed(address) }
    }

    private static let addressFull = ProtocolError(.overloaded, "too many connections from this address")
}
