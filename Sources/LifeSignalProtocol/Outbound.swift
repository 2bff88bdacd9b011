/// Broker → client frames (PROTOCOL.md §2), written straight into bytes without building a JSONValue
/// tree for the envelope.
public enum Outbound {
    /// Framed `{"op":"ok","rid":…,…fields}`; `rid` omitted when nil. Fields named `op` or `rid` are
    /// skipped: the envelope owns them.
    public static func ok(rid: Int64?, _ fields: JSONObject = [:]) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64)
        appendOK(rid: rid, fields, to: &buffer)
        return buffer
    }

    /// Framed `{"op":"error","rid":…,"code":…,"message":…}`; `rid` omitted when nil.
    public static func error(rid: Int64?, _ error: ProtocolError) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(64 + error.message.utf8.count)
        appendError(rid: rid, error, to: &buffer)
        return buffer
    }

    /// Unframed `{"op":"event","seq":…,"event":…,"data":…}`: the broker stores this body in its event
    /// log and frames it with `FrameEncoder.frame(body:)` for each device.
    public static func eventBody(seq: Int64, name: String, data: EventData) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(eventCapacity)
        writeEventBody(seq: seq, name: name, data: data, into: &buffer)
        return buffer
    }

    /// Framed event: `eventBody` with its length prefix.
    public static func event(seq: Int64, name: String, data: EventData) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4 + eventCapacity)
        FrameEncoder.appendFrame(to: &buffer) { writeEventBody(seq: seq, name: name, data: data, into: &$0) }
        return buffer
    }

    /// Framed snapshot.
    public static func snapshot(
        seq: Int64, user: User, contacts: [Contact], notifications: [Notification], unreadCount: Int
    ) -> [UInt8] {
        let snapshot = Snapshot(
            seq: seq, user: user, contacts: contacts, notifications: notifications, unreadCount: unreadCount)
        return FrameEncoder.frame(snapshot.json)
    }

    // MARK: - Appending to an output buffer

    public static func appendOK(rid: Int64?, _ fields: JSONObject = [:], to buffer: inout [UInt8]) {
        FrameEncoder.appendMessage(op: Op.ok, rid: rid, fields, to: &buffer)
    }

    /// `{"op":"ok","rid":…,"serverTime":…}` framed, keepalive's answer, written without a field object.
    public static func appendOK(rid: Int64?, serverTime: Int64, to buffer: inout [UInt8]) {
        FrameEncoder.appendFrame(to: &buffer) { body in
            FrameEncoder.writeEnvelopeStart(op: Op.ok, rid: rid, into: &body)
            body.append(contentsOf: #","serverTime":"#.utf8)
            JSONValue.writeInt(serverTime, into: &body)
            body.append(Byte.closeBrace)
        }
    }

    public static func appendError(rid: Int64?, _ error: ProtocolError, to buffer: inout [UInt8]) {
        FrameEncoder.appendFrame(to: &buffer) { body in
            FrameEncoder.writeEnvelopeStart(op: Op.error, rid: rid, into: &body)
            body.append(contentsOf: #","code":"#.utf8)
            JSONValue.writeString(error.code.rawValue, into: &body)
            body.append(contentsOf: #","message":"#.utf8)
            JSONValue.writeString(error.message, into: &body)
            body.append(Byte.closeBrace)
        }
    }

    // MARK: - Helpers

    /// Room for the common events in one allocation: a ping's `contact.updated` is about 360
    /// bytes and its `notification.added` about 450.
    private static let eventCapacity = 508

    private static func writeEventBody(seq: Int64, name: String, data: EventData, into body: inout [UInt8]) {
        body.append(contentsOf: #"{"op":"event","seq":"#.utf8)
        JSONValue.writeInt(seq, into: &body)
        body.append(contentsOf: #","event":"#.utf8)
        JSONValue.writeString(name, into: &body)
        body.append(contentsOf: #","data":"#.utf8)
        data.write(into: &body)
        body.append(Byte.closeBrace)
    }
}
