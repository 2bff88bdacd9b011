#if canImport(Glibc)
import Glibc
#endif
import LifeSignalUV

extension Broker {
    /// How long accepting pauses when the process has no descriptor to spare.
    static let acceptPauseMs: UInt64 = 500

    /// The stable id `hello` answers with (§11): the configured one, else this host and port.
    var brokerID: String {
        if let configured = configuration.brokerID { return configured }
        var name = [UInt8](repeating: 0, count: 256)
        let host = gethostname(&name, name.count - 1) == 0
            ? String(decoding: name.prefix { $0 != 0 }, as: UTF8.self) : "localhost"
        return "\(host):\(boundPort)"
    }

    /// Binds and listens on `port` (0 picks one), or listens on `bound`; returns the port bound.
    func listen(port: Int, bound: TCPListener? = nil) throws -> Int {
        guard let serving else { throw StartFailure("the broker is not serving") }
        let listener = try bound ?? TCPListener(loop: loop, host: configuration.host, port: port)
        try listener.start({ [unowned self] tcp in
            // Called on the loop, which is this actor's executor: the handle never leaves it.
            nonisolated(unsafe) let tcp = tcp
            onLoop { $0.accept(tcp) }
        }, onError: { [unowned self] error in
            onLoop { $0.acceptFailed(error) }
        })
        serving.listener = listener
        return listener.localPort
    }

    /// A failed accept. EMFILE/ENFILE reach here only when libuv had no spare descriptor for its
    /// own remedy, and it would retry at once forever: so the listener closes, and listens again
    /// shortly (meanwhile the kernel refuses new connections; existing ones go on).
    func acceptFailed(_ error: UVError) {
        logThrottled(.acceptFailed, "accept failed", ["lifesignal.error": "\(error)"])
        guard error.isOutOfDescriptors, let serving, let listener = serving.listener else { return }
        listener.close()
        serving.listener = nil
        scheduleListenAgain(serving)
    }

    private func scheduleListenAgain(_ serving: ServingResources) {
        if serving.listenRetryTimer == nil {
            serving.listenRetryTimer = try? Timer(loop: loop)
            serving.listenRetryTimer?.unref()
        }
        serving.listenRetryTimer?.start(afterMs: Self.acceptPauseMs) { [unowned self] in
            onLoop { $0.listenAgain() }
        }
    }

    private func listenAgain() {
        guard let serving, serving.listener == nil else { return }  // stopped meanwhile
        do {
            _ = try listen(port: boundPort)
            logger.notice("accepting again", metadata: ["lifesignal.port": .stringConvertible(boundPort)])
        } catch {
            logThrottled(.acceptFailed, "accept failed", ["lifesignal.error": "\(error)"])
            scheduleListenAgain(serving)
        }
    }
}
