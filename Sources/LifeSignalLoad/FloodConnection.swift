import LifeSignalClient
import LifeSignalProtocol
import LifeSignalUV

/// One connection of a flood: it connects and never sends a byte (no register, no hello). It
/// reads, so it sees what the broker sends before closing it (the hello timeout's
/// `unauthenticated` error, PROTOCOL §3) and when. Loop thread only.
package final class FloodConnection: TCPConnectionDelegate {
    package enum State {
        case idle, connecting, open, closedByBroker, failed, closed
    }

    package let index: Int
    private unowned let run: FloodRun
    private(set) var state = State.idle
    /// When the connection was established.
    private(set) var connectedNs: UInt64 = 0
    private var connection: TCPConnection?
    private var decoder = FrameDecoder(maxFrameBytes: 16 * 1024 * 1024)

    package init(index: Int, run: FloodRun) {
        self.index = index
        self.run = run
    }

    package func connect(to broker: Endpoint, from sourceAddress: String?) {
        guard state == .idle else { return }
        state = .connecting
        TCPConnection.connect(loop: run.loop, host: broker.host, port: broker.port, sourceAddress: sourceAddress) {
            [self] result in
            switch result {
            case .success(let connection):
                guard state == .connecting else { return connection.close() }  // closed while connecting
                self.connection = connection
                state = .open
                connectedNs = MonotonicClock.nowNs()
                connection.delegate = self
                connection.startReading()
                run.connectionDidConnect(self)
            case .failure(let error):
                guard state == .connecting else { return }
                state = .failed
                run.connection(self, didFailToConnect: error.name)
            }
        }
    }

    /// Closes from this side (the end of the run); no call to the run follows.
    package func close() {
        switch state {
        case .open:
            state = .closed
            connection?.close()
        case .idle, .connecting:
            state = .closed
        case .closedByBroker, .failed, .closed:
            break
        }
    }

    // MARK: - TCPConnectionDelegate

    package func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        do {
            try decoder.feed(bytes) { body in
                if case .error(_, let error)? = try? ServerMessage.parse(body) {
                    run.connection(self, receivedError: error.code.rawValue)
                } else {
                    run.connection(self, receivedError: "(not an error frame)")
                }
                return true
            }
        } catch {
            run.connection(self, receivedError: "(bad frame)")
        }
    }

    package func connectionDidClose(_ connection: TCPConnection, error: UVError?) {
        self.connection = nil
        guard state == .open else { return }
        state = .closedByBroker
        run.connectionClosedByBroker(self, afterNs: MonotonicClock.nowNs() - connectedNs)
    }
}
