import LifeSignalUV

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Drives one load run on one EventLoop, on the calling thread: sets the devices up through the
/// protocol, lets the scenario run a warm-up and then the measured window, shows progress, and
/// builds the report. Scenarios only decide what devices send.
///
/// Loop thread only (everything here runs before `loop.run()` or inside loop callbacks).
package final class LoadRun: LoadDeviceDelegate {
    package enum Phase {
        case settingUp, preparing, warmingUp, measuring, stopping
    }

    package let settings: LoadSettings
    package let scenario: LoadScenario
    package let loop: EventLoop
    private(set) var devices: [LoadDevice] = []
    private(set) var phase = Phase.settingUp
    private(set) var stats = LoadStats()
    private let keeper: ConnectionKeeper
    private var silence = SilenceWatch()
    private var series = LoadSeries()

    // Set-up.
    private var nextToSetUp = 0
    private var readyCount = 0
    private var openCount = 0
    private var setupStartNs: UInt64 = 0
    private var setupSeconds = 0.0

    // Measured window.
    private var warmupSeconds = 0.0
    private var measureStartNs: UInt64 = 0
    private var ownCPUAtStart = CPUTime(user: 0, system: 0)
    private var brokerCPUAtStart: CPUTime?
    private var brokerWrittenAtStart: UInt64?
    /// The broker's VmRSS (with `--broker-pid`) before the first device connected, and when the
    /// window started (every device online, the warm-up over).
    private(set) var brokerResidentBeforeSetupKiB: Int?
    private(set) var brokerResidentAtWindowStartKiB: Int?
    /// The same for its anonymous memory (RssAnon).
    private(set) var brokerAnonymousBeforeSetupKiB: Int?
    private(set) var brokerAnonymousAtWindowStartKiB: Int?

    // Progress.
    private var progress = LoadProgress()
    private var lastTickNs: UInt64 = 0
    private var lastTickResponses: UInt64 = 0
    private var lastTickDelivered: UInt64 = 0

    private var phaseTimer: Timer?
    private var progressTimer: Timer?
    private var interruptWatcher: SignalWatcher?
    private var failure: String?
    private var report: LoadReport?
    private var finished = false
    private var wasInterrupted = false

    /// Where the run's warnings go (a broker's figures incomplete, a device disconnected).
    private let warn: (String) -> Void

    package init(settings: LoadSettings, scenario: LoadScenario, warn: @escaping (String) -> Void) throws {
        self.settings = settings
        self.scenario = scenario
        self.warn = warn
        self.loop = try EventLoop()
        keeper = ConnectionKeeper(loop: loop)
    }

    /// While this is true a scenario keeps sending; after the measured window it stops.
    package var isSending: Bool { phase == .warmingUp || phase == .measuring }

    /// Runs to the end on the calling thread and returns the report.
    /// - Throws: `LoadError` when set-up fails or the run is interrupted before its window ends.
    package func execute() throws -> LoadReport {
        try FileDescriptorLimit.makeRoom(for: settings.devices, "devices", command: "lsclient load")
        try begin()
        try loop.run()
        if let failure { throw LoadError(failure) }
        guard let report else { throw LoadError("the run ended before its measured window finished") }
        return report
    }

    // MARK: - Phases

    private func begin() throws {
        brokerResidentBeforeSetupKiB = settings.brokerPID.flatMap(ProcessUsage.residentKiB(pid:))
        brokerAnonymousBeforeSetupKiB = settings.brokerPID.flatMap(ProcessUsage.anonymousKiB(pid:))
        let source = SourceAddresses(brokerHost: settings.broker.host)
        devices = (0..<settings.devices).map { index in
            let number = settings.deviceOffset + index
            return LoadDevice(
                index: index, deviceID: "load-\(number)", loop: loop,
                broker: settings.brokers[number % settings.brokers.count],
                sourceAddress: source.address(for: number), delegate: self)
        }
        progressTimer = try Timer(loop: loop)
        phaseTimer = try Timer(loop: loop)
        // Ctrl-C during the window ends it early with a report; during set-up it aborts.
        interruptWatcher = try SignalWatcher(loop: loop, signal: SIGINT) { [unowned self] in interrupted() }

        setupStartNs = MonotonicClock.nowNs()
        lastTickNs = setupStartNs
        progressTimer?.start(afterMs: 1_000, repeatMs: 1_000) { [unowned self] in tick() }
        phaseTimer?.start(afterMs: UInt64(settings.setupTimeoutSeconds * 1_000)) { [unowned self] in
            fail("set-up did not finish within \(NumberFormat.fixed(settings.setupTimeoutSeconds, 0)) s: "
                + "\(readyCount) of \(devices.count) devices ready")
        }
        for _ in 0..<min(settings.setupConcurrency, devices.count) { setUpNextDevice() }
        if devices.isEmpty { setupFinished() }
    }

    private func setUpNextDevice() {
        guard nextToSetUp < devices.count else { return }
        let device = devices[nextToSetUp]
        nextToSetUp += 1
        openCount += 1
        device.connect()
    }

    /// Connects a device the scenario closed (`LoadDevice.close`) again: it says hello resuming
    /// from its `lastSeq`, then `LoadScenario.deviceDidReconnect` (or `didDisconnect`) follows.
    package func reconnect(_ device: LoadDevice) {
        guard device.state == .closed, !finished else { return }
        openCount += 1
        device.connect()
    }

    private func setupFinished() {
        phase = .preparing
        scenario.prepare(in: self)
    }

    /// The scenario's own set-up is done (see `LoadScenario.prepare`): the clock starts.
    package func preparationFinished() {
        guard phase == .preparing else { return }
        setupSeconds = Double(MonotonicClock.nowNs() - setupStartNs) / 1e9
        progress.show("set-up: \(devices.count) devices ready in \(NumberFormat.fixed(setupSeconds, 2)) s")
        progress.finish()
        phaseTimer?.stop()
        phase = .warmingUp
        lastTickNs = MonotonicClock.nowNs()
        lastTickResponses = 0
        warmupSeconds = scenario.hasWarmup ? settings.warmupSeconds : 0
        // Without a warm-up the window opens before the first request goes out.
        if warmupSeconds == 0 { startMeasuring() }
        for device in devices { scenario.start(device, in: self) }
        if warmupSeconds > 0 {
            phaseTimer?.start(afterMs: UInt64(warmupSeconds * 1_000)) { [unowned self] in startMeasuring() }
        }
    }

    package func preparationFailed(_ reason: String) {
        guard phase == .preparing else { return }
        fail("set-up failed in the \(scenario.name) scenario: \(reason)")
    }

    /// An end-to-end measurement (`LoadScenario.measuresResponseLatency` false): `ns` from when
    /// the request was due to when its effect arrived.
    package func recordDelivery(ns: UInt64) {
        guard isSending else { return }
        stats.recordDelivery(ns: ns)
    }

    /// A request whose effect the scenario will wait for was sent (end-to-end scenarios).
    package func recordSent() {
        guard isSending else { return }
        stats.recordSent()
    }

    /// A response the device handled itself (a reconnect's hello), with its latency.
    package func recordResponse(latencyNs: UInt64) {
        guard isSending else { return }
        stats.recordResponse(latencyNs: latencyNs)
    }

    /// Ends the window now, before `--duration` (a scenario that has done all it does).
    package func endWindow() {
        guard phase == .measuring else { return }
        // Not inside the caller's callback (a device's read): the phase timer, due at once,
        // replaces the end of `--duration`.
        phaseTimer?.start(afterMs: 0) { [unowned self] in stopMeasuring() }
    }

    /// Called by end-to-end scenarios when the window ends: what was sent and never arrived.
    package var outstandingAtEnd: (() -> UInt64)?

    private func startMeasuring() {
        phase = .measuring
        stats.resetForMeasurement()
        ownCPUAtStart = ProcessUsage.ownCPU()
        brokerCPUAtStart = settings.brokerPID.flatMap(ProcessUsage.cpu(pid:))
        brokerWrittenAtStart = settings.brokerPID.flatMap(ProcessUsage.storageWrittenBytes(pid:))
        brokerResidentAtWindowStartKiB = settings.brokerPID.flatMap(ProcessUsage.residentKiB(pid:))
        brokerAnonymousAtWindowStartKiB = settings.brokerPID.flatMap(ProcessUsage.anonymousKiB(pid:))
        measureStartNs = MonotonicClock.nowNs()
        series.start(sent: requestsSent, stats: stats)
        lastTickNs = measureStartNs
        lastTickResponses = 0
        lastTickDelivered = 0
        phaseTimer?.start(afterMs: UInt64(settings.durationSeconds * 1_000)) { [unowned self] in stopMeasuring() }
    }

    /// Ends the window: freezes the figures, then lets every device say bye.
    private func stopMeasuring() {
        guard phase == .measuring else { return }
        let endNs = MonotonicClock.nowNs()
        let ownCPU = ProcessUsage.ownCPU() - ownCPUAtStart
        var broker: LoadReport.Broker?
        if let pid = settings.brokerPID {
            let cpu = ProcessUsage.cpu(pid: pid).flatMap { end in brokerCPUAtStart.map { end - $0 } }
            let resident = ProcessUsage.residentKiB(pid: pid)
            if cpu == nil || resident == nil {
                progress.finish()
                warn("could not read /proc/\(pid); broker figures are incomplete")
            }
            let written = ProcessUsage.storageWrittenBytes(pid: pid).flatMap { end in
                brokerWrittenAtStart.map { end >= $0 ? end - $0 : 0 }
            }
            broker = LoadReport.Broker(pid: pid, cpu: cpu, residentKiB: resident, storageWrittenBytes: written)
        }
        series.tick(endSeconds: Double(endNs - measureStartNs) / 1e9, sent: requestsSent, stats: &stats)
        phase = .stopping
        progressTimer?.close()
        progress.show("done: \(NumberFormat.grouped(stats.responses)) responses in "
            + "\(NumberFormat.fixed(Double(endNs - measureStartNs) / 1e9, 2)) s"
            + (wasInterrupted ? " (interrupted: the window is shorter than asked)" : ""))
        progress.finish()
        report = LoadReport(
            scenario: scenario.name, brokerAddress: settings.brokers.map(\.description).joined(separator: ","), devices: devices.count,
            parameters: scenario.parameters, setupSeconds: setupSeconds, warmupSeconds: warmupSeconds,
            measuredSeconds: Double(endNs - measureStartNs) / 1e9, responses: stats.responses,
            latency: stats.responses > 0 ? LoadReport.Latency(stats.latencyUs) : nil, errors: stats.errors,
            disconnects: stats.disconnects, loadGeneratorCPU: ownCPU, broker: broker)
        if !scenario.measuresResponseLatency {
            report?.latency = stats.delivered > 0 ? LoadReport.Latency(stats.latencyUs) : nil
            report?.deliveries = LoadReport.Deliveries(
                sent: stats.sent, delivered: stats.delivered, outstandingAtEnd: outstandingAtEnd?() ?? 0)
        }
        report?.latencyLabel = scenario.latencyLabel
        report?.series = series.seconds
        report?.histogramUs = stats.latencyUs
        report?.figures = connectionFigures + scenario.results(in: self)
        let failures = [connectionFailure, scenario.verificationFailure(in: self)].compactMap { $0 }
        report?.verificationFailure = failures.isEmpty ? nil : failures.joined(separator: "; ")
        leave()
    }

    /// Says bye on every connection and ends the loop once all are closed (or after 3 s).
    private func leave() {
        progressTimer?.close()
        phaseTimer?.stop()
        for device in devices { device.sayBye() }
        if openCount == 0 {
            finish()
        } else {
            phaseTimer?.start(afterMs: 3_000) { [unowned self] in finish() }
        }
    }

    private func finish() {
        guard !finished else { return }
        finished = true
        keeper.close()
        phaseTimer?.close()
        progressTimer?.close()
        interruptWatcher?.close()
        for device in devices { device.close() }
        loop.shutdownGracefully(flushTimeoutMs: 1_000)
    }

    private func fail(_ reason: String) {
        guard failure == nil, report == nil else { return }
        failure = reason
        progress.finish()
        phase = .stopping
        finish()
    }

    private func interrupted() {
        switch phase {
        case .settingUp, .preparing: fail("interrupted during set-up")
        case .warmingUp: fail("interrupted during warm-up")
        case .measuring:
            wasInterrupted = true
            stopMeasuring()
        case .stopping: finish()
        }
    }

    /// Requests the scenario's devices have sent so far.
    private var requestsSent: UInt64 { devices.reduce(0) { $0 + $1.requestsSent } }

    // MARK: - Connections kept

    /// The keeper's counts, in the report of a run that keeps its devices connected.
    private var connectionFigures: [LoadReport.Figure] {
        guard scenario.keepsConnections else { return [] }
        return [
            .count("resumed", "cut devices that reconnected and resumed", keeper.resumes),
            .count("reconnectAttemptsFailed", "reconnect attempts that failed", keeper.failedAttempts),
            .seconds("longestSilenceSec", "longest time devices waited and heard nothing", silence.longestSeconds),
        ]
    }

    /// Why a run that keeps its devices connected fails: the broker cut devices, a resume's
    /// catch-up broke the seq order, or the broker answered nothing for seconds.
    private var connectionFailure: String? {
        guard scenario.keepsConnections else { return nil }
        var failures: [String] = []
        if stats.disconnects > 0 {
            failures.append("the broker cut \(NumberFormat.grouped(stats.disconnects)) connections "
                + "(\(NumberFormat.grouped(keeper.resumes)) resumed, \(keeper.awaitingResume) still cut at the end)")
        }
        if keeper.resumeGaps > 0 {
            failures.append("resumed catch-ups skipped or repeated \(keeper.resumeGaps) events")
        }
        if let failure = silence.failure { failures.append(failure) }
        return failures.isEmpty ? nil : failures.joined(separator: "; ")
    }

    // MARK: - Progress

    private func tick() {
        let now = MonotonicClock.nowNs()
        switch phase {
        case .settingUp:
            progress.show("set-up: \(NumberFormat.grouped(readyCount)) of \(NumberFormat.grouped(devices.count)) "
                + "devices ready (\(NumberFormat.fixed(Double(now - setupStartNs) / 1e9, 0)) s)")
        case .preparing:
            progress.show("set-up: \(scenario.name) scenario preparing "
                + "(\(NumberFormat.fixed(Double(now - setupStartNs) / 1e9, 0)) s)")
        case .stopping:
            break
        case .warmingUp, .measuring:
            let seconds = Double(now - lastTickNs) / 1e9
            let rate = seconds > 0 ? Double(stats.responses - lastTickResponses) / seconds : 0
            let elapsed = NumberFormat.fixed(Double(now - measureStartNs) / 1e9, 0)
            var text = phase == .warmingUp ? "warm-up" : "\(elapsed)/\(NumberFormat.fixed(settings.durationSeconds, 0)) s"
            text += ": \(NumberFormat.grouped(Int(rate.rounded()))) responses/s"
            if !scenario.measuresResponseLatency {
                let delivered = Double(stats.delivered - lastTickDelivered)
                text += ", \(NumberFormat.grouped(Int((seconds > 0 ? delivered / seconds : 0).rounded()))) delivered/s"
            }
            if phase != .warmingUp && stats.latencyUs.totalCount > 0 {
                text += ", p99 " + NumberFormat.latency(microseconds: stats.latencyUs.valueAtPercentile(99))
            }
            text += ", errors \(NumberFormat.grouped(stats.errorCount))"
            text += ", disconnects \(NumberFormat.grouped(stats.disconnects))"
            progress.show(text)
            if phase == .measuring {
                series.tick(endSeconds: Double(now - measureStartNs) / 1e9, sent: requestsSent, stats: &stats)
            }
            if phase == .measuring && scenario.keepsConnections {
                silence.observe(heard: stats.responses + stats.delivered + stats.errorCount,
                                waiting: keeper.awaitingResume > 0 || devices.contains { $0.inFlight > 0 },
                                nowNs: now, windowStartNs: measureStartNs)
            }
            lastTickResponses = stats.responses
            lastTickDelivered = stats.delivered
        }
        lastTickNs = now
    }

    // MARK: - LoadDeviceDelegate

    package func deviceIsReady(_ device: LoadDevice) {
        keeper.start(heartbeatMs: device.heartbeatMs ?? 0, devices: { [unowned self] in devices },
                     keepsAlive: { [unowned self] _ in phase == .settingUp || phase == .preparing || !scenario.sendsOwnKeepalives })
        guard phase == .settingUp else {
            keeper.resumed(device)
            if isSending || phase == .preparing { scenario.deviceDidReconnect(device, in: self) }
            return
        }
        readyCount += 1
        if readyCount == devices.count {
            setupFinished()
        } else {
            setUpNextDevice()
        }
    }

    package func device(_ device: LoadDevice, setupFailed reason: String) {
        if phase == .settingUp {
            fail("set-up failed for device \(device.deviceID): \(reason)")
        } else if keeper.isReconnecting(device) {
            keeper.attemptFailed(device, reconnect: reconnectIfSending)
        } else {
            // A reconnect that failed mid-run (scenarios that reconnect): lost, not fatal.
            self.device(device, didDisconnect: reason)
        }
    }

    package func device(_ device: LoadDevice, didReceive response: LoadResponse) {
        if response.kind == LoadRequestKind.connectionKeepalive { return }
        if phase == .preparing { return scenario.device(device, didReceive: response, in: self) }
        guard isSending else { return }
        stats.record(response, latency: scenario.measuresResponseLatency)
        scenario.device(device, didReceive: response, in: self)
    }

    package func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64) {
        guard isSending || phase == .preparing else { return }
        scenario.device(device, didReceiveEvent: name, seq: seq, receivedNs: receivedNs, in: self)
    }

    package func device(_ device: LoadDevice, didDisconnect error: String?) {
        if phase == .settingUp || phase == .preparing {
            // The run needs every device: e.g. set-up took longer than twice the broker's heartbeat.
            return fail("\(device.deviceID) was disconnected before the run began: \(error ?? "closed")")
        }
        guard isSending else { return }
        stats.recordDisconnect()
        if stats.disconnects <= 3 {
            progress.finish()
            warn("\(device.deviceID) disconnected: \(error ?? "closed")"
                + (scenario.keepsConnections ? "; it reconnects and resumes" : ""))
        }
        if scenario.keepsConnections { keeper.cut(device, reconnect: reconnectIfSending) }
        scenario.device(device, didDisconnect: error, in: self)
    }

    /// A device the keeper reconnects: only while the scenario still sends.
    private func reconnectIfSending(_ device: LoadDevice) {
        if isSending { reconnect(device) }
    }

    package func deviceDidClose(_ device: LoadDevice) {
        openCount -= 1
        if phase != .stopping { scenario.deviceDidClose(device, in: self) }
        if phase == .stopping && openCount == 0 && failure == nil { finish() }
    }
}
