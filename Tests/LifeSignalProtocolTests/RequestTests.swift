import LifeSignalProtocol
import Testing

@Suite("Request")
struct RequestTests {
    static func parse(_ text: String) throws(RequestParseError) -> Request {
        try Request.parse(Array(text.utf8))
    }

    static func parseError(_ text: String) -> RequestParseError? {
        do {
            _ = try parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func parsesOpRidAndFields() throws {
        let request = try Self.parse(#"{"op":"contacts.add","rid":7,"qrCode":"K3F9","isResponder":true,"x":{}}"#)
        #expect(request.op == "contacts.add")
        #expect(request.rid == 7)
        #expect(request.fields["qrCode"] == "K3F9")
        #expect(request.fields["x"] == .object([:]))
    }

    @Test func ridIsOptionalAndNullMeansAbsent() throws {
        #expect(try Self.parse(#"{"op":"keepalive"}"#).rid == nil)
        #expect(try Self.parse(#"{"op":"keepalive","rid":null}"#).rid == nil)
        #expect(try Self.parse(#"{"op":"keepalive","rid":-5}"#).rid == -5)
    }

    @Test(arguments: [#"[{"op":"hello"}]"#, "42", #""op""#, "null", "true", "{", #"{"op":"a"} x"#, "", "{'op':1}"])
    func bodyThatIsNotAnObjectIsBadJSON(text: String) {
        let error = Self.parseError(text)
        #expect(error?.error.code == .badJSON)
        #expect(error?.rid == nil)
    }

    @Test func badUTF8IsBadJSON() throws {
        let bytes: [UInt8] = Array(#"{"op":""#.utf8) + [0xFF] + Array(#"","rid":1}"#.utf8)
        let error = #expect(throws: RequestParseError.self) { try Request.parse(bytes) }
        #expect(error?.error.code == .badJSON)
        #expect(error?.rid == nil)
    }

    @Test(arguments: [#""7""#, "1.5", "true", "[]", "{}", "9223372036854775808"])
    func ridThatIsNotAnIntegerIsBadRequestWithoutRid(rid: String) {
        let error = Self.parseError(#"{"op":"keepalive","rid":\#(rid)}"#)
        #expect(error?.error.code == .badRequest)
        #expect(error?.error.message.contains("rid") == true)
        #expect(error?.rid == nil)
    }

    @Test(arguments: [#"{"rid":3}"#, #"{"rid":3,"op":5}"#, #"{"rid":3,"op":null}"#, #"{"op":["x"],"rid":3}"#])
    func missingOrMistypedOpIsBadRequestWithRid(text: String) {
        let error = Self.parseError(text)
        #expect(error?.error.code == .badRequest)
        #expect(error?.error.message.contains("op") == true)
        #expect(error?.rid == 3)
    }

    static let request = Request(op: "x", fields: [
        "s": "text", "b": true, "i": 42, "o": ["k": 1], "n": nil, "d": 1.0, "a": [1],
    ])

    @Test func requiredAccessors() throws {
        let request = Self.request
        #expect(try request.string("s") == "text")
        #expect(try request.bool("b") == true)
        #expect(try request.int("i") == 42)
    }

    @Test func optionalAccessors() throws {
        let request = Self.request
        #expect(try request.optionalString("s") == "text")
        #expect(try request.optionalBool("b") == true)
        #expect(try request.optionalInt("i") == 42)
        #expect(try request.optionalObject("o") == ["k": 1])
        // Absent and null are both nil.
        #expect(try request.optionalString("missing") == nil)
        #expect(try request.optionalString("n") == nil)
        #expect(try request.optionalBool("n") == nil)
        #expect(try request.optionalInt("n") == nil)
        #expect(try request.optionalObject("n") == nil)
    }

    /// Every accessor with a key that is missing, null, or of another type.
    static let failures: [(String, String, @Sendable (Request) throws(ProtocolError) -> Void)] = [
        ("string missing", "missing", { r throws(ProtocolError) in _ = try r.string("missing") }),
        ("string null", "n", { r throws(ProtocolError) in _ = try r.string("n") }),
        ("string wrong type", "i", { r throws(ProtocolError) in _ = try r.string("i") }),
        ("optionalString wrong type", "b", { r throws(ProtocolError) in _ = try r.optionalString("b") }),
        ("bool missing", "missing", { r throws(ProtocolError) in _ = try r.bool("missing") }),
        ("bool null", "n", { r throws(ProtocolError) in _ = try r.bool("n") }),
        ("bool wrong type", "i", { r throws(ProtocolError) in _ = try r.bool("i") }),
        ("optionalBool wrong type", "s", { r throws(ProtocolError) in _ = try r.optionalBool("s") }),
        ("int missing", "missing", { r throws(ProtocolError) in _ = try r.int("missing") }),
        ("int null", "n", { r throws(ProtocolError) in _ = try r.int("n") }),
        ("int wrong type", "s", { r throws(ProtocolError) in _ = try r.int("s") }),
        ("int given a double", "d", { r throws(ProtocolError) in _ = try r.int("d") }),
        ("optionalInt wrong type", "b", { r throws(ProtocolError) in _ = try r.optionalInt("b") }),
        ("optionalInt given a double", "d", { r throws(ProtocolError) in _ = try r.optionalInt("d") }),
        ("optionalObject wrong type", "a", { r throws(ProtocolError) in _ = try r.optionalObject("a") }),
    ]

    @Test func accessorFailuresAreBadRequestNamingTheField() {
        for (label, field, access) in Self.failures {
            do {
                try access(Self.request)
                Issue.record("\(label): no error")
            } catch {
                #expect(error.code == .badRequest, "\(label)")
                #expect(error.message.contains("'\(field)'"), "\(label): \(error.message)")
            }
        }
    }

    @Test func hasCountsNullAsPresent() {
        #expect(Self.request.has("n"))
        #expect(Self.request.has("s"))
        #expect(!Self.request.has("missing"))
    }

    @Test func jsonCarriesOpAndRid() throws {
        let request = Request(op: "ping.send", rid: 9, fields: ["contactId": "u_2"])
        let parsed = try Request.parse(request.json.serialized())
        #expect(parsed.op == "ping.send")
        #expect(parsed.rid == 9)
        #expect(try parsed.string("contactId") == "u_2")
    }
}
