/// A load pattern. `LoadRun` sets the devices up, keeps the clock, counts and reports; a scenario
/// decides what each ready device sends and what a response or event leads to. Loop thread only.
package protocol LoadScenario: AnyObject {
    /// The name in reports ("keepalive").
    var name: String { get }
    /// The scenario's own settings, for the report (e.g. in-flight per device).
    var parameters: [LoadReport.Parameter] { get }
    /// True (the default): each `ok`'s round trip goes into the latency histogram. False: the
    /// scenario records its own latency with `LoadRun.recordDelivery` (end-to-end scenarios).
    var measuresResponseLatency: Bool { get }
    /// What the latency rows of the table measure; nil: the run's default wording.
    var latencyLabel: String? { get }
    /// False: the window starts as soon as the scenario starts, whatever `--warmup` says
    /// (scenarios that do one thing once, like storm).
    var hasWarmup: Bool { get }
    /// True (the default): the run keeps every device connected (`ConnectionKeeper`: a device the
    /// broker cuts reconnects and resumes), and a cut or a silence of the broker fails the run.
    /// False: the scenario cuts and reconnects devices itself (storm, failover) or expects them to
    /// be cut (hostile).
    var keepsConnections: Bool { get }
    /// True: the devices send keepalives of their own (idle, keepalive), which the run's would
    /// skew; the run sends its own only before the scenario starts.
    var sendsOwnKeepalives: Bool { get }
    /// Every device is ready; the clock has not started. Set up what the scenario needs through
    /// the protocol (contacts…), then call `run.preparationFinished()` (or `preparationFailed`).
    /// Responses and events meanwhile reach the scenario and are not counted.
    func prepare(in run: LoadRun)
    /// The run begins (warm-up included): start sending on `device`.
    func start(_ device: LoadDevice, in run: LoadRun)
    /// A response to one of this scenario's requests; the run has already counted it.
    func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun)
    /// A live event (after the catch-up).
    func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun)
    /// A device the scenario reconnected (`LoadRun.reconnect`) said hello and applied its catch-up.
    func deviceDidReconnect(_ device: LoadDevice, in run: LoadRun)
    /// A ready device's connection was lost, or a reconnect failed; the run has counted it.
    func device(_ device: LoadDevice, didDisconnect error: String?, in run: LoadRun)
    /// A device's connection closed, for any reason (after the calls above).
    func deviceDidClose(_ device: LoadDevice, in run: LoadRun)
    /// The window has ended: the scenario's own figures for the report.
    func results(in run: LoadRun) -> [LoadReport.Figure]
    /// The window has ended: why the run failed its own checks (the report is still printed, then
    /// lsclient exits 1), or nil.
    func verificationFailure(in run: LoadRun) -> String?
}

package extension LoadScenario {
    var measuresResponseLatency: Bool { true }
    var latencyLabel: String? { nil }
    var hasWarmup: Bool { true }
    var keepsConnections: Bool { true }
    var sendsOwnKeepalives: Bool { false }
    func prepare(in run: LoadRun) { run.preparationFinished() }
    func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun) {}
    func deviceDidReconnect(_ device: LoadDevice, in run: LoadRun) {}
    func device(_ device: LoadDevice, didDisconnect error: String?, in run: LoadRun) {}
    func deviceDidClose(_ device: LoadDevice, in run: LoadRun) {}
    func results(in run: LoadRun) -> [LoadReport.Figure] { [] }
    func verificationFailure(in run: LoadRun) -> String? { nil }
}
