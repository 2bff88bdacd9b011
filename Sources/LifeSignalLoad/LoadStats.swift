import Histogram

/// What a run counts. Latency goes into an HdrHistogram in microseconds: recording is a few
/// nanoseconds and percentiles stay exact to 3 significant digits, with no samples kept.
package struct LoadStats {
    /// Round trips of `ok` responses, µs, from 1 µs to 60 s (longer ones are clamped).
    private(set) var latencyUs = Self.emptyHistogram()
    /// The same since the last `takeInterval()`: a second of the run's series.
    private var intervalUs = Self.emptyHistogram()
    private(set) var responses: UInt64 = 0
    private(set) var errors: [String: UInt64] = [:]
    private(set) var disconnects: UInt64 = 0
    /// End-to-end scenarios (pings): requests sent and their effects seen on another device.
    private(set) var sent: UInt64 = 0
    private(set) var delivered: UInt64 = 0

    package static let highestTrackableUs: UInt64 = 60_000_000

    package static func emptyHistogram() -> Histogram<UInt64> {
        Histogram(
            lowestDiscernibleValue: 1, highestTrackableValue: highestTrackableUs, numberOfSignificantValueDigits: .three)
    }

    package var errorCount: UInt64 { errors.values.reduce(0, +) }

    /// An `ok` counts as a response with its latency; an `error` counts under its code.
    package mutating func record(_ response: LoadResponse, latency: Bool = true) {
        if let code = response.errorCode {
            errors[code.rawValue, default: 0] += 1
        } else {
            if latency { recordLatency(ns: response.latencyNs) }
            responses += 1
        }
    }

    /// An `ok` the device handled itself (a reconnect's hello), `ns` after its request began.
    package mutating func recordResponse(latencyNs ns: UInt64) {
        recordLatency(ns: ns)
        responses += 1
    }

    package mutating func recordSent() {
        sent += 1
    }

    /// An effect arrived (e.g. a ping's notification) `ns` after its request was due.
    package mutating func recordDelivery(ns: UInt64) {
        recordLatency(ns: ns)
        delivered += 1
    }

    package mutating func recordLatency(ns: UInt64) {
        let us = Swift.min(ns / 1_000, Self.highestTrackableUs)
        latencyUs.record(us)
        intervalUs.record(us)
    }

    /// The latencies recorded since the last call, and a fresh histogram for the next interval.
    package mutating func takeInterval() -> Histogram<UInt64> {
        defer { intervalUs.reset() }
        return intervalUs
    }

    package mutating func recordDisconnect() {
        disconnects += 1
    }

    /// Drops what the warm-up counted; errors and disconnects are kept so none goes unreported.
    package mutating func resetForMeasurement() {
        latencyUs = Self.emptyHistogram()
        intervalUs.reset()
        responses = 0
        sent = 0
        delivered = 0
    }
}
