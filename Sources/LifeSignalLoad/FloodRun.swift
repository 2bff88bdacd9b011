import LifeSignalClient
import Histogram
import LifeSignalUV

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lsclient load flood`: opens C connections that never send anything, holds them for the
/// duration (counted from the first connect) on one EventLoop, and reports what the broker did
/// with them. Nothing is registered. Unlike `LoadRun` there are no devices, no protocol and no
/// failure: connects that fail and connections the broker closes are the results.
///
/// Loop thread only (everything here runs before `loop.run()` or inside loop callbacks).
package final class FloodRun {
    package struct Settings {
        var broker: Endpoint
        var connections: Int
        var durationSeconds: Double
        /// Connects in progress at once.
        var concurrency: Int
        var brokerPID: Int32?

        package init(broker: Endpoint, connections: Int, durationSeconds: Double, concurrency: Int, brokerPID: Int32?) {
            self.broker = broker
            self.connections = connections
            self.durationSeconds = durationSeconds
            self.concurrency = concurrency
            self.brokerPID = brokerPID
        }
    }

    package let settings: Settings
    package let loop: EventLoop
    private var connections: [FloodConnection] = []
    private var nextToConnect = 0
    private var connecting = 0

    // What happened.
    private var connected = 0
    private var connectFailures: [String: UInt64] = [:]
    private var closedByBroker = 0
    /// From connect to the broker's close, ms, up to a day.
    private var closedAfterMs = Histogram<UInt64>(
        lowestDiscernibleValue: 1, highestTrackableValue: 86_400_000, numberOfSignificantValueDigits: .three)
    private var brokerErrors: [String: UInt64] = [:]

    private var startNs: UInt64 = 0
    private var connectSeconds: Double?
    private var ownCPUAtStart = CPUTime(user: 0, system: 0)
    private var brokerCPUAtStart: CPUTime?
    private var brokerResidentBeforeKiB: Int?
    private var brokerResidentConnectedKiB: Int?

    private var progress = LoadProgress()
    private var holdTimer: Timer?
    private var progressTimer: Timer?
    private var interruptWatcher: SignalWatcher?
    private var report: FloodReport?
    private var wasInterrupted = false

    package init(settings: Settings) throws {
        self.settings = settings
        self.loop = try EventLoop()
    }

    /// Runs to the end on the calling thread and returns the report.
    /// - Throws: `LoadError` when this process may not open that many sockets.
    package func execute() throws -> FloodReport {
        try FileDescriptorLimit.makeRoom(for: settings.connections, "connections", command: "lsclient load flood")
        try begin()
        try loop.run()
        guard let report else { throw LoadError("the flood ended before its report was made") }
        return report
    }

    private func begin() throws {
        connections = (0..<settings.connections).map { FloodConnection(index: $0, run: self) }
        holdTimer = try Timer(loop: loop)
        progressTimer = try Timer(loop: loop)
        interruptWatcher = try SignalWatcher(loop: loop, signal: SIGINT) { [unowned self] in
            wasInterrupted = true
            end()
        }
        brokerResidentBeforeKiB = settings.brokerPID.flatMap(ProcessUsage.residentKiB(pid:))
        brokerCPUAtStart = settings.brokerPID.flatMap(ProcessUsage.cpu(pid:))
        ownCPUAtStart = ProcessUsage.ownCPU()
        startNs = MonotonicClock.nowNs()
        holdTimer?.start(afterMs: UInt64(settings.durationSeconds * 1_000)) { [unowned self] in end() }
        progressTimer?.start(afterMs: 1_000, repeatMs: 1_000) { [unowned self] in showProgress() }
        for _ in 0..<min(settings.concurrency, connections.count) { connectNext() }
        if connections.isEmpty { allResolved() }
    }

    private func connectNext() {
        guard nextToConnect < connections.count, report == nil else { return }
        let source = SourceAddresses(brokerHost: settings.broker.host)
        let connection = connections[nextToConnect]
        nextToConnect += 1
        connecting += 1
        connection.connect(to: settings.broker, from: source.address(for: connection.index))
    }

    private func resolved() {
        connecting -= 1
        connectNext()
        if connecting == 0 && nextToConnect == connections.count { allResolved() }
    }

    /// Every connect has succeeded or failed: the broker now holds all it will.
    private func allResolved() {
        connectSeconds = Double(MonotonicClock.nowNs() - startNs) / 1e9
        brokerResidentConnectedKiB = settings.brokerPID.flatMap(ProcessUsage.residentKiB(pid:))
        progress.show("connects done in \(NumberFormat.fixed(connectSeconds ?? 0, 2)) s: "
            + "\(NumberFormat.grouped(connected)) of \(NumberFormat.grouped(connections.count)) connected")
    }

    private var openCount: Int { connected - closedByBroker }

    private func showProgress() {
        guard report == nil else { return }
        let elapsed = NumberFormat.fixed(Double(MonotonicClock.nowNs() - startNs) / 1e9, 0)
        var text = "\(elapsed)/\(NumberFormat.fixed(settings.durationSeconds, 0)) s: "
            + "\(NumberFormat.grouped(connected)) of \(NumberFormat.grouped(connections.count)) connected"
        let failed = connectFailures.values.reduce(0, +)
        if failed > 0 { text += ", \(NumberFormat.grouped(failed)) failed to connect" }
        text += ", \(NumberFormat.grouped(closedByBroker)) closed by the broker, \(NumberFormat.grouped(openCount)) open"
        progress.show(text)
    }

    /// The hold is over (or Ctrl-C): freezes the figures, closes every connection, ends the loop.
    private func end() {
        guard report == nil else { return }
        let heldSeconds = Double(MonotonicClock.nowNs() - startNs) / 1e9
        var broker: LoadReport.Broker?
        if let pid = settings.brokerPID {
            let cpu = ProcessUsage.cpu(pid: pid).flatMap { end in brokerCPUAtStart.map { end - $0 } }
            broker = LoadReport.Broker(pid: pid, cpu: cpu, residentKiB: ProcessUsage.residentKiB(pid: pid))
        }
        report = FloodReport(
            brokerAddress: settings.broker.description, connections: connections.count, connected: connected,
            connectFailures: connectFailures, stillConnecting: connecting, connectSeconds: connectSeconds,
            heldSeconds: heldSeconds, closedByBroker: closedByBroker,
            closedAfterMs: closedByBroker > 0 ? closedAfterMs : nil, brokerErrors: brokerErrors,
            openAtEnd: openCount, loadGeneratorCPU: ProcessUsage.ownCPU() - ownCPUAtStart, broker: broker,
            brokerResidentBeforeKiB: brokerResidentBeforeKiB, brokerResidentConnectedKiB: brokerResidentConnectedKiB)
        progress.show("done: held \(NumberFormat.fixed(heldSeconds, 2)) s"
            + (wasInterrupted ? " (interrupted: shorter than asked)" : ""))
        progress.finish()
        holdTimer?.close()
        progressTimer?.close()
        interruptWatcher?.close()
        for connection in connections { connection.close() }
        loop.shutdownGracefully(flushTimeoutMs: 1_000)
    }

    // MARK: - From the connections

    package func connectionDidConnect(_ connection: FloodConnection) {
        connected += 1
        resolved()
    }

    package func connection(_ connection: FloodConnection, didFailToConnect reason: String) {
        connectFailures[reason, default: 0] += 1
        resolved()
    }

    package func connection(_ connection: FloodConnection, receivedError code: String) {
        brokerErrors[code, default: 0] += 1
    }

    package func connectionClosedByBroker(_ connection: FloodConnection, afterNs: UInt64) {
        closedByBroker += 1
        closedAfterMs.record(min(max(afterNs / 1_000_000, 1), 86_400_000))
    }
}
