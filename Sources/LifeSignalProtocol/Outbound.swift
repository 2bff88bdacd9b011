/// Broker → client frames (PROTOCOL.md §2), written straight into bytes without building a JSONValue
/// tree for the envelope.
public enum Outbound {
    /// Framed `{"op":"ok","rid":…,…fields}`; `rid` omitted when nil. Fields named `op` or `rid` are
    /// skipped: the envelope owns them.
    public static func ok(rid: Int64?, _ fields: JSONObject = [:]) -> [UInt8] {
        FrameEncoder.framed { FrameEncoder.writeMessage(op: Op.ok, rid: rid, fields, into: &$0) }
    }

    /// Framed `{"op":"error","rid":…,"code":…,"message":…}`; `rid` omitted when nil.
    public static func error(rid: Int64?, _ error: ProtocolError) -> [UInt8] {
        FrameEncoder.framed { writeError(rid: rid, error, into: &$0) }
    }

    /// Unframed `{"op":"event","seq":…,"event":…,"data":…}`: the broker stores this body in its event
    /// log and frames it with `FrameEncoder.frame(body:)` for each device.
    public static func eventBody(seq: Int64, name: String, data: EventData) -> [UInt8] {
        ByteSink.collect { writeEventBody(seq: seq, name: name, data: data, into: &$0) }
    }

    /// Framed event: `eventBody` with its length prefix.
    public static func event(seq: Int64, name: String, data: EventData) -> [UInt8] {
        FrameEncoder.framed { writeEventBody(seq: seq, name: name, data: data, into: &$0) }
    }

    /// Framed snapshot, written without a tree (a hello's answer holds up to 100 notifications
    /// and every contact).
    public static func snapshot(
        seq: Int64, user: User, contacts: [Contact], notifications: [Notification], unreadCount: Int
    ) -> [UInt8] {
        let snapshot = Snapshot(
            seq: seq, user: user, contacts: contacts, notifications: notifications, unreadCount: unreadCount)
        return FrameEncoder.framed { snapshot.write(to: &$0) }
    }

    // MARK: - Appending to an output buffer

    public static func appendOK(rid: Int64?, _ fields: JSONObject = [:], to buffer: inout [UInt8]) {
        FrameEncoder.appendMessage(op: Op.ok, rid: rid, fields, to: &buffer)
    }

    /// `{"op":"ok","rid":…,"serverTime":…}` framed, keepalive's answer, written without a field object.
    public static func appendOK(rid: Int64?, serverTime: Int64, to buffer: inout [UInt8]) {
        FrameEncoder.appendFrame(to: &buffer) { body in
            FrameEncoder.writeEnvelopeStart(op: Op.ok, rid: rid, into: &body)
            body.write(#","serverTime":"#)
            JSONValue.writeInt(serverTime, into: &body)
            body.write(Byte.closeBrace)
        }
    }

    public static func appendError(rid: Int64?, _ error: ProtocolError, to buffer: inout [UInt8]) {
        FrameEncoder.appendFrame(to: &buffer) { writeError(rid: rid, error, into: &$0) }
    }

    // MARK: - Helpers

    private static func writeError<Output: JSONOutput>(rid: Int64?, _ error: ProtocolError, into body: inout Output) {
        FrameEncoder.writeEnvelopeStart(op: Op.error, rid: rid, into: &body)
        body.write(#","code":"#)
        JSONValue.writeString(error.code.rawValue, into: &body)
        body.write(#","message":"#)
        JSONValue.writeString(error.message, into: &body)
        body.write(Byte.closeBrace)
    }

    private static func writeEventBody<Output: JSONOutput>(seq: Int64, name: String, data: EventData,
                                                          into body: inout Output) {
        body.write(#"{"op":"event","seq":"#)
        JSONValue.writeInt(seq, into: &body)
        body.write(#","event":"#)
        JSONValue.writeString(name, into: &body)
        body.write(#","data":"#)
        data.write(to: &body)
        body.write(Byte.closeBrace)
    }
}
