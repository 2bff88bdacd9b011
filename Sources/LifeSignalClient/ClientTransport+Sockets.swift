#if !canImport(Network)
import NIOCore
import NIOPosix

/// SwiftNIO's sockets, TLS from NIOSSL at the head of the pipeline.
enum ClientTransport {
    /// One thread, started on first use: each client actor runs on it (its executor) and so do its
    /// connection's handlers, so a read enters the actor with `assumeIsolated`, without a hop. A
    /// device needs one socket; a thread per client would cost more than all its traffic.
    static let group: any EventLoopGroup = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// A connection to `endpoint` on `loop`, ending in `LinkHandler`; host names resolve.
    static func connect(to endpoint: Endpoint, tls: ClientTLSContext?, timeout: TimeAmount, on loop: any EventLoop)
        -> EventLoopFuture<any Channel>
    {
        ClientBootstrap(group: loop)
            .connectTimeout(timeout)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(try tls.handler(host: endpoint.host)) }
                    try channel.pipeline.syncOperations.addHandler(LinkHandler())
                }
            }
            .connect(host: endpoint.host, port: endpoint.port)
    }
}
#endif
