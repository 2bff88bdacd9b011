import LifeSignalProtocol
import Testing

@Suite("FrameEncoder")
struct FrameEncoderTests {
    @Test func frameIsBigEndianLengthThenCompactJSON() {
        let value: JSONValue = ["op": "keepalive", "rid": 3]
        let body = Array(#"{"op":"keepalive","rid":3}"#.utf8)
        #expect(FrameEncoder.frame(value) == [0, 0, 0, UInt8(body.count)] + body)
        #expect(FrameEncoder.frame(body: body) == FrameEncoder.frame(value))
    }

    @Test func lengthUsesAllFourBytes() {
        let body = [UInt8](repeating: 0x20, count: 0x01_02_03)
        #expect(Array(FrameEncoder.frame(body: body).prefix(4)) == [0x00, 0x01, 0x02, 0x03])
    }

    /// A frame built on its own is written into scratch memory that grows past its first 1 KiB:
    /// every size around and far past that comes out whole, escapes included, the same as the
    /// frame appended to an output buffer.
    @Test(arguments: [0, 1, 1_000, 1_010, 1_011, 1_012, 1_024, 2_047, 2_048, 5_000, 70_000])
    func aFrameOfAnySizeComesOutWhole(length: Int) throws {
        let text = String(repeating: "a\"\u{1}é", count: length / 4) + String(repeating: "z", count: length % 4)
        let value: JSONValue = ["op": "x", "text": .string(text), "list": [1, -2, 3.5, nil, false]]
        let framed = FrameEncoder.frame(value)
        var appended: [UInt8] = []
        FrameEncoder.append(value, to: &appended)
        #expect(framed == appended)
        let body = Array(framed.dropFirst(4))
        #expect(Array(framed.prefix(4)) == Array(FrameEncoder.frame(body: body).prefix(4)))
        #expect(try JSONValue.parse(body) == value)
        #expect(value.serialized() == body)
    }

    @Test func appendKeepsWhatIsAlreadyBuffered() throws {
        var buffer: [UInt8] = [9, 9]
        FrameEncoder.append(["a": 1], to: &buffer)
        FrameEncoder.append(["b": [true, nil]], to: &buffer)
        #expect(Array(buffer.prefix(2)) == [9, 9])

        var decoder = FrameDecoder()
        var bodies: [String] = []
        try Array(buffer.dropFirst(2)).withUnsafeBytes { bytes in
            try decoder.feed(bytes) { bodies.append(String(decoding: $0, as: UTF8.self)); return true }
        }
        #expect(bodies == [#"{"a":1}"#, #"{"b":[true,null]}"#])
    }
}
