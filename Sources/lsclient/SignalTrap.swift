import Dispatch

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs a handler on SIGINT or SIGTERM instead of dying, so `watch` can save its state first.
final class SignalTrap {
    private let sources: [any DispatchSourceSignal]

    init(_ signals: [Int32] = [SIGINT, SIGTERM], handler: @escaping @Sendable () -> Void) {
        sources = signals.map { number in
            signal(number, SIG_IGN)  // otherwise the default action kills the process first
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler(handler: handler)
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}
