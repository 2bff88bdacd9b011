import LifeSignalProtocol
import LifeSignalUV

/// Receives a load device's milestones and traffic on the loop thread (in practice: `LoadRun`).
package protocol LoadDeviceDelegate: AnyObject {
    /// Registered (if needed), said hello and applied the catch-up: it may send requests now.
    func deviceIsReady(_ device: LoadDevice)
    /// Set-up could not finish; `reason` says which step and why.
    func device(_ device: LoadDevice, setupFailed reason: String)
    /// A response to a request sent with `LoadDevice.send` once ready.
    func device(_ device: LoadDevice, didReceive response: LoadResponse)
    /// An event after the catch-up (fan-out scenarios count them).
    func device(_ device: LoadDevice, didReceiveEvent name: String, seq: Int64, receivedNs: UInt64)
    /// The connection closed after the device was ready (not by `sayBye`/`close`).
    func device(_ device: LoadDevice, didDisconnect error: String?)
    /// The connection closed, for any reason (a failed connect included); called after the calls above.
    func deviceDidClose(_ device: LoadDevice)
}
