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
