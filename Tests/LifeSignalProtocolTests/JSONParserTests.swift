import LifeSignalProtocol
import Testing

@Suite("JSON parsing")
struct JSONParserTests {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    @Test func scalarsAndContainers() throws {
        #expect(try Self.parse("null") == .null)
        #expect(try Self.parse("true") == .bool(true))
        #expect(try Self.parse("false") == .bool(false))
        #expect(try Self.parse(#""hi""#) == .string("hi"))
        #expect(try Self.parse("[]") == .array([]))
        #expect(try Self.parse("{}") == .object([:]))
        #expect(try Self.parse(" \t\r\n{ \"a\" : [ 1 , {\"b\":null} ] }\n ") == ["a": [1, ["b": nil]]])
    }

    @Test func boolIntAndDoubleAreKeptApart() throws {
        let value = try Self.parse("[true, 1, 1.0, 1e0, 1E+2, -0, -0.0, 0.5, -12]")
        #expect(value == .array([
            .bool(true), .int(1), .double(1), .double(1), .double(100), .int(0), .double(-0.0), .double(0.5),
            .int(-12),
        ]))
        #expect(value.arrayValue?[1].boolValue == nil)
        #expect(value.arrayValue?[0].intValue == nil)
        #expect(value.arrayValue?[2].intValue == nil)
    }

    @Test func integersThatDoNotFitInt64BecomeDoubles() throws {
        #expect(try Self.parse("9223372036854775807") == .int(.max))
        #expect(try Self.parse("-9223372036854775808") == .int(.min))
        #expect(try Self.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try Self.parse("-9223372036854775809") == .double(-9.223372036854775808e18))  // rounds to -2^63
        #expect(try Self.parse("123456789012345678901234567890") == .double(1.2345678901234568e29))
    }

    @Test func escapes() throws {
        #expect(try Self.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{08}\u{0C}\n\r\t"))
        #expect(try Self.parse(#""\u0041\u00e9\u20AC""#) == .string("Aé€"))
        #expect(try Self.parse(#""\ud83d\ude00 smile""#) == .string("😀 smile"))
        #expect(try Self.parse(#""a\u0000b""#) == .string("a\u{0}b"))
        #expect(try Self.parse(#""plain then \n escape then é""#) == .string("plain then \n escape then é"))
    }

    @Test func rawUnicode() throws {
        let text = "é € 😀 日本 \u{10FFFF}"
        #expect(try Self.parse("\"\(text)\"") == .string(text))
        #expect(try Self.parse("{\"ключ\":\"значение\"}") == ["ключ": "значение"])
    }

    @Test func nestingUpTo64LevelsIsAccepted() throws {
        let depth = 64
        var value = try Self.parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        var levels = 0
        while case .array(let inner) = value {
            levels += 1
            value = inner.first ?? .null
        }
        #expect(levels == depth)
        let objects = String(repeating: #"{"a":"#, count: depth) + "1" + String(repeating: "}", count: depth)
        #expect(try Self.parse(objects).objectValue != nil)
    }

    @Test(arguments: [65, 100_000])
    func deeperNestingIsRejected(depth: Int) {
        #expect(throws: JSONParseError.self) {
            try Self.parse(String(repeating: "[", count: depth) + String(repeating: "]", count: depth))
        }
    }

    @Test func largeObjectsAreParsedAndCheckedForDuplicates() throws {
        let pairs = (0..<500).map { "\"k\($0)\":\($0)" }.joined(separator: ",")
        let object = try #require(try Self.parse("{\(pairs)}").objectValue)
        #expect(object.count == 500)
        #expect(object["k499"] == .int(499))
        #expect(object.keys.first == "k0")
        #expect(throws: JSONParseError.self) { try Self.parse("{\(pairs),\"k250\":0}") }
    }

    @Test(arguments: [
        // Bad UTF-8: inside a string, and outside one.
        [0x22, 0xC3, 0x28, 0x22],  // truncated 2-byte sequence
        [0x22, 0xC0, 0xAF, 0x22],  // overlong "/"
        [0x22, 0xE0, 0x80, 0xAF, 0x22],  // overlong 3-byte
        [0x22, 0xED, 0xA0, 0x80, 0x22],  // encoded surrogate U+D800
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // above U+10FFFF
        [0x22, 0xF5, 0x80, 0x80, 0x80, 0x22],  // invalid lead byte
        [0x22, 0x80, 0x22],  // lone continuation byte
        [0x22, 0xE2, 0x82],  // truncated at end of input
        [0x22, 0xFF, 0x22],
        [0xC3, 0xA9],  // non-ASCII outside a string
        [0xEF, 0xBB, 0xBF, 0x7B, 0x7D],  // byte order mark before {}
    ] as [[UInt8]])
    func badUTF8IsRejected(bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
    }

    @Test(arguments: [
        "", " ", "{} x", "{}{}", "1 2", "[1] ]", "nul", "truex", "True", "NULL",
        "{'a':1}", "['a']", "NaN", "Infinity", "-Infinity", "[NaN]",
        "01", "-01", "00", "[012]", "+1", ".5", "1.", "1.e5", "1e", "1e+", "-", "--1", "0x10", "1e400", "-1e400",
        "[1,]", "{\"a\":1,}", "[,1]", "{,}", "[1 2]", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{1:1}", "{\"a\":1",
        "[", "\"abc", "\"a\\\"", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"", "\"\\ud800\"", "\"\\udc00\"",
        "\"\\ud800\\u0041\"", "\"\\ud800x\"", "\"tab\there\"", "\"new\nline\"", "/* c */ {}", "{} // c",
        "{\"a\":1,\"a\":2}", "\u{0B}{}",
    ])
    func invalidJSONIsRejected(text: String) {
        #expect(throws: JSONParseError.self) { try Self.parse(text) }
    }

    @Test func errorsCarryTheOffset() throws {
        let error = #expect(throws: JSONParseError.self) { try Self.parse(#"{"a":1} x"#) }
        #expect(error?.offset == 8)
    }

    @Test func parsesFromARawBufferSlice() throws {
        let bytes = Array(#"xx{"a":true}yy"#.utf8)
        let value = try bytes.withUnsafeBytes { try JSONValue.parse(UnsafeRawBufferPointer(rebasing: $0[2..<12])) }
        #expect(value == ["a": true])
    }
}
