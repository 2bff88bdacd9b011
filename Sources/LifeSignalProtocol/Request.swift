/// A client request (PROTOCOL.md §2): `{"op": …, "rid": …, …fields}`.
public struct Request: Sendable {
    public let op: String
    public let rid: Int64?
    /// The whole request object, `op` and `rid` included; unknown fields are kept and ignored.
    public let fields: JSONObject

    public init(op: String, rid: Int64? = nil, fields: JSONObject = [:]) {
        self.op = op
        self.rid = rid
        self.fields = fields
    }

    /// Parses one frame body.
    ///
    /// A body that is not a JSON object is `bad_json` without a rid. A `rid` that is not an integer is
    /// `bad_request` without a rid (null counts as absent, like every optional field). A missing or
    /// non-string `op` is `bad_request` with the rid, so the client can match the error to its request.
    public static func parse(_ body: UnsafeRawBufferPointer) throws(RequestParseError) -> Request {
        let value: JSONValue
        do {
            value = try JSONValue.parse(body)
        } catch {
            throw RequestParseError(error: .badJSON("request body is not valid JSON: \(error)"), rid: nil)
        }
        guard case .object(let object) = value else {
            throw RequestParseError(error: .badJSON("request body is \(value.typeName), not an object"), rid: nil)
        }

        let rid: Int64?
        switch object["rid"] {
        case nil, .null?: rid = nil
        case .int(let value)?: rid = value
        case let other?:
            let message = "field 'rid' must be an integer, not \(other.typeName)"
            throw RequestParseError(error: .badRequest(message), rid: nil)
        }

        switch object["op"] {
        case .string(let op)?:
            return Request(op: op, rid: rid, fields: object)
        case nil:
            throw RequestParseError(error: .badRequest("missing field 'op'"), rid: rid)
        case let other?:
            let message = "field 'op' must be a string, not \(other.typeName)"
            throw RequestParseError(error: .badRequest(message), rid: rid)
        }
    }

    public static func parse(_ body: [UInt8]) throws(RequestParseError) -> Request {
        // withUnsafeBytes rethrows untyped errors; carry the typed one out by hand.
        let result: Result<Request, RequestParseError> = body.withUnsafeBytes { bytes in
            do throws(RequestParseError) {
                return .success(try parse(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The request as a JSON value, e.g. for a client to send: `fields` with `op` and `rid` set.
    public var json: JSONValue {
        var object = fields
        object["op"] = .string(op)
        object["rid"] = rid.map(JSONValue.int)
        return .object(object)
    }
}
