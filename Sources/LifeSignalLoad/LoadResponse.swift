import LifeSignalProtocol

/// A response to a request a scenario sent, matched to that request.
package struct LoadResponse {
    package let rid: Int64
    package let kind: UInt8
    /// When the request was sent, or was meant to be sent (see `PendingQueue.Entry.startNs`).
    package let startNs: UInt64
    /// When the read that carried the response was handled.
    package let receivedNs: UInt64
    /// The parsed frame: `.ok` or `.error`. An `ok` to a request sent with `wantsFields: false`
    /// has empty fields (it was recognized, not parsed).
    package let message: ServerMessage

    package var latencyNs: UInt64 { receivedNs >= startNs ? receivedNs - startNs : 0 }

    package var errorCode: ProtocolError.Code? {
        if case .error(_, let error) = message { return error.code }
        return nil
    }
}
