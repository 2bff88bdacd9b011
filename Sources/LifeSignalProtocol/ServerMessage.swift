/// A frame from the broker, as a client reads it (PROTOCOL.md §2).
public enum ServerMessage: Sendable, Equatable {
    /// `fields` holds the result fields, without `op` and `rid`.
    case ok(rid: Int64?, fields: JSONObject)
    case error(rid: Int64?, ProtocolError)
    case event(seq: Int64, name: String, data: JSONValue)
    case snapshot(Snapshot)

    /// Parses one frame body. Error codes this version does not know are kept as they are.
    /// - Throws: `bad_json` for a body that is not a JSON object, `bad_request` for a missing or
    ///   mistyped envelope field, `unknown_op` for an `op` this version does not know.
    public static func parse(_ body: UnsafeRawBufferPointer) throws(ProtocolError) -> ServerMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch {
            throw .badJSON("broker frame is not valid JSON: \(error)")
        }
        guard case .object(var object) = value else {
            throw .badJSON("broker frame is \(value.typeName), not an object")
        }

        let op = try object.string("op")
        switch op {
        case Op.ok:
            let rid = try object.optionalInt("rid")
            object["op"] = nil
            object["rid"] = nil
            return .ok(rid: rid, fields: object)
        case Op.error:
            let rid = try object.optionalInt("rid")
            let code = ProtocolError.Code(rawValue: try object.string("code"))
            let message = try object.optionalString("message") ?? ""
            return .error(rid: rid, ProtocolError(code, message))
        case Op.event:
            return .event(seq: try object.int("seq"), name: try object.string("event"), data: object["data"] ?? .null)
        case Op.snapshot:
            return .snapshot(try Snapshot(json: value))
        default:
            throw .unknownOp("unknown broker op '\(op)'")
        }
    }

    public static func parse(_ body: [UInt8]) throws(ProtocolError) -> ServerMessage {
        let result: Result<ServerMessage, ProtocolError> = body.withUnsafeBytes { bytes in
            do throws(ProtocolError) {
                return .success(try parse(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
