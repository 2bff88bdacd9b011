import Hummingbird
import NIOCore

/// A request to the operations endpoint, with who sent it: the endpoint has no authentication, so
/// what changes state (removing a push token) is taken only from this machine.
struct OperationsRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    var isFromThisMachine: Bool {
        guard let address = remoteAddress?.ipAddress else { return false }
        return address.hasPrefix("127.") || address == "::1" || address.hasPrefix("::ffff:127.")
    }
}
