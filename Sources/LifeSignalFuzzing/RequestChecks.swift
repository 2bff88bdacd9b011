import LifeSignalProtocol

/// `Request.parse` agrees with the JSON parser and §2, and its errors are the §1/§2 ones.
enum RequestChecks {
    static func check(_ body: [UInt8], parsed: JSONValue?, _ stats: inout FuzzStats) throws(FuzzFailure) {
        let request: Request
        do {
            request = try Request.parse(body)
        } catch {
            try checkRefusal(error, parsed: parsed)
            return
        }
        stats.requests += 1
        try expect(parsed?.objectValue == request.fields, "a request's fields are not the parsed object")
        try expect(request.fields["op"] == .string(request.op), "op is not the 'op' field")
        try expect(request.rid == request.fields["rid"]?.intValue, "rid is not the 'rid' field")

        // What a client sends for a request parses back to the same request.
        let resent: Request
        do {
            resent = try Request.parse(request.json.serialized())
        } catch {
            throw FuzzFailure("a request's own JSON is refused: \(error.error)")
        }
        try expect(
            resent.op == request.op && resent.rid == request.rid && .object(resent.fields) == request.json,
            "a request's own JSON parses to another request")

        var rules = BrokerFieldRules()
        do {
            try rules.apply(to: request)
            stats.validRequests += 1
        } catch {
            try expect(ProtocolError.Code.allV1.contains(error.code), "field rules threw unknown code \(error.code)")
            let expected: Set<ProtocolError.Code> =
                !Op.all.contains(request.op) ? [.unknownOp]
                : request.op == Op.hello ? [.badRequest, .unsupportedVersion] : [.badRequest]
            try expect(expected.contains(error.code), "field rules of '\(request.op)' threw \(error)")
        }
        if let broken = rules.broken.first { throw FuzzFailure("op '\(request.op)': \(broken)") }
    }

    /// Not an object: `bad_json` without a rid. An object: `bad_request`, with the rid when the rid
    /// is an integer and only `op` is wrong.
    private static func checkRefusal(_ error: RequestParseError, parsed: JSONValue?) throws(FuzzFailure) {
        guard let object = parsed?.objectValue else {
            try expect(error.error.code == .badJSON && error.rid == nil, "a non-object body got \(error)")
            return
        }
        try expect(error.error.code == .badRequest, "an object body got \(error.error)")
        switch object["rid"] {
        case nil, .null?, .int?:
            try expect(object["op"]?.stringValue == nil, "refused a request with a string op: \(error.error)")
            try expect(error.rid == object["rid"]?.intValue, "refusal rid \(String(describing: error.rid))")
        default:
            try expect(error.rid == nil, "a bad rid was echoed")
        }
    }
}
