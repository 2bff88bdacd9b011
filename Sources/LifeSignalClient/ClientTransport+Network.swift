#if canImport(Network)
import Network
import NIOCore
import NIOTransportServices

/// Network.framework through NIOTransportServices: TLS is the connection's own protocol
/// (`ClientTLSContext.options`), not a handler, and a handshake that fails fails the connect.
/// Not built or run on Linux, where the tests run: ClientTransport+Sockets is.
enum ClientTransport {
    /// One loop (a dispatch queue) for every client of the process, as on Linux.
    static let group: any EventLoopGroup = NIOTSEventLoopGroup(loopCount: 1)

    /// A connection to `endpoint` on `loop`, ending in `LinkHandler`; TCP_NODELAY is the
    /// bootstrap's default.
    static func connect(to endpoint: Endpoint, tls: ClientTLSContext?, timeout: TimeAmount, on loop: any EventLoop)
        -> EventLoopFuture<any Channel>
    {
        var bootstrap = NIOTSConnectionBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(LinkHandler()) }
            }
        if let tls { bootstrap = bootstrap.tlsOptions(tls.options(host: endpoint.host)) }
        return bootstrap.connect(host: endpoint.host, port: endpoint.port)
    }
}
#endif
