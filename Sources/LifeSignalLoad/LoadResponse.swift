import LifeSignalProtocol

/// A response to a request a scenario sent, matched to that request.
package struct LoadResponse {
    package let kind: UInt8
    /// When the request was sent, or was meant to be sent (see `LoadDevice.Sent.startNs`).
    package let startNs: UInt64
    /// When the read that carried the response was handled.
    package let receivedNs: UInt64
    /// The broker's error code; nil for an `ok`.
    package let errorCode: ProtocolError.Code?

    package var latencyNs: UInt64 { receivedNs >= startNs ? receivedNs - startNs : 0 }
}
