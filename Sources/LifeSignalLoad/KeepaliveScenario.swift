import LifeSignalProtocol
import LifeSignalUV

/// Closed loop: every device keeps `inFlight` keepalives pipelined and sends the next one as each
/// answer arrives. Measures the broker's per-request floor: parse, route to the session, answer,
/// with no store and no fan-out.
package final class KeepaliveScenario: LoadScenario {
    package let inFlight: Int

    package init(inFlight: Int) {
        self.inFlight = inFlight
    }

    package var name: String { "keepalive" }
    package var sendsOwnKeepalives: Bool { true }

    package var parameters: [LoadReport.Parameter] {
        [LoadReport.Parameter(key: "inFlight", label: "in flight per device", value: inFlight)]
    }

    package func start(_ device: LoadDevice, in run: LoadRun) {
        let now = MonotonicClock.nowNs()
        for _ in 0..<inFlight {
            device.send(Op.keepalive, kind: LoadRequestKind.keepalive, startNs: now, wantsFields: false)
        }
    }

    package func device(_ device: LoadDevice, didReceive response: LoadResponse, in run: LoadRun) {
        // An error answer also frees its slot: the pipeline depth stays `inFlight`.
        guard run.isSending else { return }
        device.send(Op.keepalive, kind: LoadRequestKind.keepalive, wantsFields: false)
    }
}
