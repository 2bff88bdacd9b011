import LifeSignalProtocol
import Testing

@Suite("Outbound and ServerMessage")
struct OutboundTests {
    /// The one body inside `frame`, checked to be exactly one whole frame.
    static func body(_ frame: [UInt8]) throws -> [UInt8] {
        var decoder = FrameDecoder()
        var bodies: [[UInt8]] = []
        try frame.withUnsafeBytes { try decoder.feed($0) { bodies.append(Array($0)); return true } }
        #expect(decoder.bufferedByteCount == 0)
        try #require(bodies.count == 1)
        return bodies[0]
    }

    static func text(_ frame: [UInt8]) throws -> String {
        String(decoding: try body(frame), as: UTF8.self)
    }

    static func message(_ frame: [UInt8]) throws -> ServerMessage {
        try ServerMessage.parse(body(frame))
    }

    @Test(arguments: [Int64?.none, 7])
    func keepalivesAnswerIsTheGeneralOkWithServerTime(rid: Int64?) {
        var direct: [UInt8] = []
        Outbound.appendOK(rid: rid, serverTime: 1_763_800_000_000, to: &direct)
        #expect(direct == Outbound.ok(rid: rid, ["serverTime": .int(1_763_800_000_000)]))
    }

    @Test func ok() throws {
        #expect(try Self.text(Outbound.ok(rid: 7, ["contact": ["id": "u_2"]]))
            == #"{"op":"ok","rid":7,"contact":{"id":"u_2"}}"#)
        #expect(try Self.text(Outbound.ok(rid: nil)) == #"{"op":"ok"}"#)
        // The envelope owns op and rid.
        #expect(try Self.text(Outbound.ok(rid: 1, ["op": "x", "rid": 2, "a": 3])) == #"{"op":"ok","rid":1,"a":3}"#)

        #expect(try Self.message(Outbound.ok(rid: 7, ["count": 3, "n": nil]))
            == .ok(rid: 7, fields: ["count": 3, "n": nil]))
        #expect(try Self.message(Outbound.ok(rid: nil)) == .ok(rid: nil, fields: [:]))
    }

    @Test func error() throws {
        let error = ProtocolError.notFound("no user has that QR code")
        #expect(try Self.text(Outbound.error(rid: 7, error))
            == #"{"op":"error","rid":7,"code":"not_found","message":"no user has that QR code"}"#)
        #expect(try Self.text(Outbound.error(rid: nil, .badJSON("quote \" here")))
            == #"{"op":"error","code":"bad_json","message":"quote \" here"}"#)
        #expect(try Self.message(Outbound.error(rid: 7, error)) == .error(rid: 7, error))
        #expect(try Self.message(Outbound.error(rid: nil, error)) == .error(rid: nil, error))
    }

    @Test func event() throws {
        let data: EventData = ["contactId": "u_2"]
        let body = Outbound.eventBody(seq: 42, name: EventName.contactRemoved, data: data)
        #expect(String(decoding: body, as: UTF8.self)
            == #"{"op":"event","seq":42,"event":"contact.removed","data":{"contactId":"u_2"}}"#)
        #expect(Outbound.event(seq: 42, name: EventName.contactRemoved, data: data) == FrameEncoder.frame(body: body))
        #expect(try Self.message(FrameEncoder.frame(body: body))
            == .event(seq: 42, name: "contact.removed", data: data.json))
    }

    @Test func snapshot() throws {
        let user = User(id: "u_1", name: "Alice", qrCode: "Q", createdAt: 1)
        let contacts = [Contact(id: "u_2", name: "Bob", isResponder: true, isDependent: false, addedAt: 2)]
        let notifications = [Notification(id: "n_1", type: .added, title: "Contact Added", message: "m", timestamp: 3)]
        let frame = Outbound.snapshot(
            seq: 41, user: user, contacts: contacts, notifications: notifications, unreadCount: 1)
        #expect(try Self.text(frame).hasPrefix(#"{"op":"snapshot","seq":41,"user":{"id":"u_1""#))
        let expected = Snapshot(seq: 41, user: user, contacts: contacts, notifications: notifications, unreadCount: 1)
        #expect(try Self.message(frame) == .snapshot(expected))
    }

    @Test func unknownErrorCodesArriveAsTheyAre() throws {
        let body = Array(#"{"op":"error","code":"future_code","message":"m"}"#.utf8)
        let error = ProtocolError(ProtocolError.Code(rawValue: "future_code"), "m")
        #expect(try ServerMessage.parse(body) == .error(rid: nil, error))
    }

    @Test func malformedBrokerFrames() {
        func code(_ text: String) -> ProtocolError.Code? {
            do {
                _ = try ServerMessage.parse(Array(text.utf8))
                return nil
            } catch {
                return error.code
            }
        }
        #expect(code("[1]") == .badJSON)
        #expect(code("{") == .badJSON)
        #expect(code(#"{"op":"teleport"}"#) == .unknownOp)
        #expect(code(#"{"rid":1}"#) == .badRequest)
        #expect(code(#"{"op":"event","seq":"1","event":"x","data":{}}"#) == .badRequest)
        #expect(code(#"{"op":"ok","rid":"1"}"#) == .badRequest)
        #expect(code(#"{"op":"snapshot","seq":1}"#) == .badRequest)
    }
}
