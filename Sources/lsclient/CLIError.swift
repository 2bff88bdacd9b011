import LifeSignalClient

/// A failure of lsclient itself (not the broker's, not the connection's).
enum CLIError: Error, CustomStringConvertible {
    /// Bad arguments or environment.
    case usage(String)
    /// Files: a missing profile, an unreadable state, a failed write.
    case local(String)

    var description: String {
        switch self {
        case .usage(let message), .local(let message): return message
        }
    }
}
