#if canImport(Glibc)
import Glibc
#endif

/// `SIGTERM` rather than 15 in the log: the number differs between systems, the name does not.
enum SignalName {
    static func of(_ signal: Int32) -> String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGINT: "SIGINT"
        case SIGHUP: "SIGHUP"
        default: "signal \(signal)"
        }
    }
}
