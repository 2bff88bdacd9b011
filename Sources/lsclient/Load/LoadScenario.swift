/// A load pattern. `LoadRun` sets the devices up, keeps the clock, counts and reports; a scenario
/// decides what each ready device sends and what a response or event leads to. Loop thread only.
protocol LoadScenario: AnyObject {
    /// The name in reports ("keepalive").
    var name: String { get }
    /// The scenario's own settings, for the report (e.g. in-flight per device).
    var parameters: [LoadReport.Parameter] { get }
    /// True (the default): each `ok`'s round trip goes into the latency histogram. False: the
    /// scenario records its own latency with `LoadRun.recordDelivery` (end-to-end scenarios).
    var measuresResponseLatency: Bool { get }
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
}

extension LoadScenario {
    var measuresResponseLatency: Bool { true }
    func prepare(in run: LoadRun) { run.preparationFinished() }
    func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64, in run: LoadRun) {}
}
