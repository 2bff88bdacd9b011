import LifeSignalProtocol
import Testing

@Suite("RequestFrame")
struct RequestFrameTests {
    static func body(of frame: [UInt8]) -> String { String(decoding: frame.dropFirst(4), as: UTF8.self) }

    @Test func opAndRidComeFirstThenTheFieldsInOrder() {
        var buffer: [UInt8] = []
        RequestFrame.append(op: Op.pingSend, rid: 42, ["contactId": "u_1", "n": [1, nil]], to: &buffer)
        #expect(Self.body(of: buffer) == #"{"op":"ping.send","rid":42,"contactId":"u_1","n":[1,null]}"#)
        #expect(Array(buffer.prefix(4)) == [0, 0, 0, UInt8(buffer.count - 4)])
    }

    @Test func aBareRequestIsJustOpAndRid() {
        var buffer: [UInt8] = [7]
        RequestFrame.append(op: Op.keepalive, rid: -3, [:], to: &buffer)
        #expect(buffer.first == 7)
        #expect(Self.body(of: Array(buffer.dropFirst())) == #"{"op":"keepalive","rid":-3}"#)
    }

    @Test func fieldsNamedOpOrRidDoNotOverrideTheFramesOwn() throws {
        var buffer: [UInt8] = []
        RequestFrame.append(op: Op.checkIn, rid: 5, ["op": "bye", "rid": 9], to: &buffer)
        let request = try Request.parse(Array(buffer.dropFirst(4)))
        #expect(request.op == Op.checkIn && request.rid == 5)
        #expect(Self.body(of: buffer) == #"{"op":"checkin","rid":5}"#)
    }
}
