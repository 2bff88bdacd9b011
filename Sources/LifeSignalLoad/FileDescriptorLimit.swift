import LifeSignalUV

/// Each simulated device holds one socket: the limit is raised before connecting, and a run
/// that cannot fit is refused with what to do instead.
package enum FileDescriptorLimit {
    /// Descriptors the process needs besides the devices' sockets (stdio, the loop's own fds).
    package static let reserved = 32

    /// Raises the limit, then makes sure `count` sockets fit under it.
    /// - Throws: `LoadError` naming `what` ("devices", "connections") and what to do instead.
    package static func makeRoom(for count: Int, _ what: String, command: String) throws {
        let limit = ProcessFileLimit.raiseToHard()
        guard count <= limit - reserved else {
            throw LoadError(
                "\(count) \(what) need as many sockets, but this process may open only \(limit) files "
                    + "(RLIMIT_NOFILE hard limit); run several \(command) processes with fewer \(what) each")
        }
    }
}
