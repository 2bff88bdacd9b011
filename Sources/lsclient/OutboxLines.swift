import Foundation
import LifeSignalClient
import LifeSignalProtocol

/// How lsclient shows a pending operation and what became of it.
enum OutboxLines {
    static func fields(of operation: PendingOperation) -> JSONObject {
        ["opId": .string(operation.id), "op": .string(operation.op),
         "queuedAt": .int(Int64((operation.queuedAt.timeIntervalSince1970 * 1000).rounded()))]
    }

    static func text(of operation: PendingOperation) -> String {
        let queuedAt = Int64((operation.queuedAt.timeIntervalSince1970 * 1000).rounded())
        return "\(operation.op) (\(operation.id)), queued \(Readable.time(queuedAt))"
    }

    static func fields(of outcome: OperationOutcome) -> JSONObject {
        var fields = fields(of: outcome.operation)
        switch outcome.result {
        case .success(let answer): fields["ok"] = .object(answer)
        case .failure(let error):
            fields["error"] = .object(["code": .string(error.code.rawValue), "message": .string(error.message)])
        }
        return fields
    }

    static func text(of outcome: OperationOutcome) -> String {
        switch outcome.result {
        case .success: "sent \(outcome.operation.op) (\(outcome.operation.id)): ok"
        case .failure(let error): "sent \(outcome.operation.op) (\(outcome.operation.id)): refused, \(error)"
        }
    }
}
