import LifeSignalProtocol

/// Why a client call failed.
///
/// `server` carries the broker's own error (its wire code and message); every other case is about the
/// connection or this client, never about what the broker decided.
public enum LifeSignalClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The broker answered `error` (PROTOCOL.md §9).
    case server(ProtocolError)
    /// The TCP connection could not be opened.
    case connectionFailed(String)
    /// The connection ended while the call was in flight (the reason is for people, not for code).
    case connectionLost(String)
    /// The broker did not answer within `ClientConfiguration.responseTimeoutMs`, so the client left
    /// it. A request in flight may or may not have been carried out.
    case timedOut(String)
    /// No live connection: not connected yet, or between a drop and the reconnect.
    case notConnected
    /// `close()` or `bye()` ended this client.
    case closed
    /// The broker sent something this client cannot accept; the client drops the connection.
    case protocolViolation(String)
    /// An event's seq was not `lastSeq + 1` (PROTOCOL.md §6 promises no gaps, no repeats).
    case sequenceGap(expected: Int64, received: Int64)
    /// The request would exceed the broker's `maxFrameBytes`; it was not sent.
    case requestTooLarge(bytes: Int, limit: Int)
    /// `enqueue` was given a request that is not kept under an `opId` (a read, `account.delete`).
    case notQueueable(String)
    /// `enqueue` needs `ClientConfiguration.outbox`.
    case noOutbox

    /// The broker's error, if this is one.
    public var serverError: ProtocolError? {
        if case .server(let error) = self { return error }
        return nil
    }

    /// A stable snake_case name: the broker's code for `.server`, the case's name otherwise.
    public var code: String {
        switch self {
        case .server(let error): return error.code.rawValue
        case .connectionFailed: return "connection_failed"
        case .connectionLost: return "connection_lost"
        case .timedOut: return "timed_out"
        case .notConnected: return "not_connected"
        case .closed: return "closed"
        case .protocolViolation: return "protocol_violation"
        case .sequenceGap: return "sequence_gap"
        case .requestTooLarge: return "request_too_large"
        case .notQueueable: return "not_queueable"
        case .noOutbox: return "no_outbox"
        }
    }

    /// The message without the code; the broker's own message for `.server`.
    public var message: String {
        switch self {
        case .server(let error): return error.message
        case .connectionFailed(let reason): return "cannot connect to \(reason)"
        case .connectionLost(let reason): return reason
        case .timedOut(let reason): return reason
        case .notConnected: return "not connected"
        case .closed: return "client closed"
        case .protocolViolation(let reason): return reason
        case .sequenceGap(let expected, let received): return "event seq \(received), expected \(expected)"
        case .requestTooLarge(let bytes, let limit): return "request of \(bytes) bytes exceeds maxFrameBytes \(limit)"
        case .notQueueable(let op): return "\(op) is not kept under an opId, so it cannot wait in the outbox"
        case .noOutbox: return "the client has no outbox storage (ClientConfiguration.outbox)"
        }
    }

    public var description: String { "\(code): \(message)" }
}
