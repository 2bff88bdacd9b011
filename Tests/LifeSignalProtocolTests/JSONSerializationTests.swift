import LifeSignalProtocol
import Testing

@Suite("JSON serialization")
struct JSONSerializationTests {
    static func text(_ value: JSONValue) -> String {
        String(decoding: value.serialized(), as: UTF8.self)
    }

    @Test func compactOutputInKeyOrder() {
        let value: JSONValue = ["z": 1, "a": [true, false, nil], "m": ["x": "y"], "d": 1.5, "n": -42]
        #expect(Self.text(value) == #"{"z":1,"a":[true,false,null],"m":{"x":"y"},"d":1.5,"n":-42}"#)
        #expect(value.description == Self.text(value))
    }

    @Test func integerEdges() {
        #expect(Self.text(.int(0)) == "0")
        #expect(Self.text(.int(.max)) == "9223372036854775807")
        #expect(Self.text(.int(.min)) == "-9223372036854775808")
    }

    @Test func escapes() {
        #expect(Self.text("a\"b\\c/d") == #""a\"b\\c/d""#)
        #expect(Self.text("\u{0}\u{1}\n\r\t\u{1F}") == #""\u0000\u0001\u000a\u000d\u0009\u001f""#)
        #expect(Self.text("\u{7F} é 😀 \u{2028}") == "\"\u{7F} é 😀 \u{2028}\"")
        #expect(Self.text(["k\"ey": "v"]) == #"{"k\"ey":"v"}"#)
    }

    /// The writer looks at eight bytes at a time: every character that must be escaped, and its
    /// neighbours that must not, at every position of strings around a word's length.
    @Test func escapesAtEveryPositionOfAWord() {
        func reference(_ text: String) -> String {
            var escaped = "\""
            for scalar in text.unicodeScalars {
                switch scalar.value {
                case 0x22: escaped += "\\\""
                case 0x5C: escaped += "\\\\"
                case ..<0x20: escaped += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped + "\""
        }
        let probes: [Unicode.Scalar] = ["\u{0}", "\u{1}", "\u{1F}", "\"", "\\", " ", "!", "#", "[", "]", "\u{7F}", "é", "😀"]
        for length in 0...20 {
            for position in 0..<max(length, 1) {
                for probe in probes {
                    var scalars = Array(repeating: Unicode.Scalar("a"), count: length)
                    if length > 0 { scalars[position] = probe }
                    if length > 9 { scalars[(position + 9) % length] = "\"" }
                    var text = ""
                    text.unicodeScalars.append(contentsOf: scalars)
                    #expect(Self.text(.string(text)) == reference(text), "\(length) \(position) \(probe.value)")
                }
            }
        }
    }

    @Test func doublesStayDoubles() throws {
        #expect(Self.text(.double(1)) == "1.0")
        #expect(try JSONValue.parse(JSONValue.double(1).serialized()) == .double(1))
        #expect(try JSONValue.parse(JSONValue.double(1e20).serialized()) == .double(1e20))
    }

    @Test func nonFiniteDoublesBecomeNull() {
        #expect(Self.text([.double(.nan), .double(.infinity), .double(-.infinity)]) == "[null,null,null]")
    }

    @Test func doublesRoundTripExactly() throws {
        var samples: [Double] = [
            0.1, 0.2, 1.0 / 3, -0.0, .leastNonzeroMagnitude, 2.2250738585072014e-308, 1.7976931348623157e308,
            1e21, 1e-7,
            123_456.789, 9_007_199_254_740_992, -2.5e-300,
        ]
        // Deterministic pseudo-random bit patterns across the whole range.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        while samples.count < 2_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let double = Double(bitPattern: state)
            if double.isFinite { samples.append(double) }
        }
        for sample in samples {
            let parsed = try JSONValue.parse(JSONValue.double(sample).serialized())
            guard case .double(let back) = parsed else {
                Issue.record("\(sample) came back as \(parsed)")
                continue
            }
            #expect(back.bitPattern == sample.bitPattern, "\(sample)")
        }
    }

    @Test func roundTrips() throws {
        let values: [JSONValue] = [
            nil, true, false, 0, -1, .int(.max), .int(.min), 0.5, -1e-10, "", "plain", "quote\" back\\ nl\n",
            "\u{0}\u{1F}", "é€😀", [], [:], [[[]]], ["a": ["b": ["c": [1, 2.5, "x", nil, true]]]],
            ["order": 1, "kept": 2, "as": 3, "written": 4],
        ]
        for value in values {
            #expect(try JSONValue.parse(value.serialized()) == value, "\(value)")
        }
    }

    @Test func textRoundTrips() throws {
        let texts = [
            #"{"op":"contacts.add","rid":7,"qrCode":"K3F9QZ2M8WXA","isResponder":true,"isDependent":false}"#,
            #"[1,-2,3.5,-0.25,1e-07,null,"\u0001",{"a":{}}]"#,
            #"{"z":0,"y":[{"x":[]}]}"#,
        ]
        for text in texts {
            #expect(Self.text(try JSONValue.parse(Array(text.utf8))) == text)
        }
    }

    @Test func writeAppends() {
        var buffer = Array("prefix:".utf8)
        JSONValue.array([1, "two"]).write(into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == #"prefix:[1,"two"]"#)
    }
}
