import Foundation
import LifeSignalProtocol

/// A write kept in the outbox until the broker has answered it (PROTOCOL §12): sent, and sent
/// again after any drop or restart, under its `opId`, so it acts once however often it is sent.
public struct PendingOperation: Sendable, Hashable, Identifiable, Codable {
    /// The `opId` it is sent under: unique per user, chosen when it was queued.
    public let id: String
    public let op: String
    /// The request's fields as JSON text, as `DeviceCommand` wrote them.
    public let fieldsJSON: String
    public let queuedAt: Date

    init(command: DeviceCommand, id: String = "op-" + UUID().uuidString.lowercased(), queuedAt: Date = Date()) {
        self.id = id
        op = command.op
        fieldsJSON = String(decoding: JSONValue.object(command.fields).serialized(), as: UTF8.self)
        self.queuedAt = queuedAt
    }

    /// The fields it is sent with: the command's, and its `opId`.
    var requestFields: JSONObject {
        var fields = (try? JSONValue.parse(Array(fieldsJSON.utf8)))?.objectValue ?? [:]
        fields[FieldName.opID] = .string(id)
        return fields
    }

    /// The command, as the broker will read it.
    public var command: DeviceCommand? {
        var fields = requestFields
        fields[FieldName.opID] = nil
        return try? DeviceCommand(Request(op: op, rid: nil, fields: fields))
    }
}

/// What the broker made of a pending operation: its `ok` fields, or its refusal. Either way the
/// operation has left the outbox.
public struct OperationOutcome: Sendable {
    public let operation: PendingOperation
    public let result: Result<JSONObject, ProtocolError>
}

private enum FieldName {
    static let opID = "opId"
}
