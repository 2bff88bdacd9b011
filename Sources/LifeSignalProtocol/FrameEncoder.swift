/// Encodes frames (PROTOCOL.md §1): a 4-byte big-endian length, then the compact JSON body.
public enum FrameEncoder {
    public static func frame(_ object: JSONValue) -> [UInt8] {
        framed { object.write(to: &$0) }
    }

    public static func frame(body: [UInt8]) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(4 + body.count)
        appendLength(body.count, to: &buffer)
        buffer.append(contentsOf: body)
        return buffer
    }

    /// Appends one frame to an output buffer, serializing in place: no intermediate body array.
    public static func append(_ object: JSONValue, to buffer: inout [UInt8]) {
        appendFrame(to: &buffer) { object.write(to: &$0) }
    }

    /// Appends `{"op":…,"rid":…,…fields}` framed: a request, or an `ok` with its fields.
    static func appendMessage(op: String, rid: Int64?, _ fields: JSONObject, to buffer: inout [UInt8]) {
        appendFrame(to: &buffer) { writeMessage(op: op, rid: rid, fields, into: &$0) }
    }

    /// `{"op":…,"rid":…,…fields}`. Fields named `op` or `rid` are left out (the message's own
    /// win); no rid, no `rid` field.
    static func writeMessage<Output: JSONOutput>(op: String, rid: Int64?, _ fields: JSONObject,
                                                 into body: inout Output) {
        writeEnvelopeStart(op: op, rid: rid, into: &body)
        for (key, value) in fields where key != "op" && key != "rid" {
            body.write(Byte.comma)
            JSONValue.writeString(key, into: &body)
            body.write(Byte.colon)
            value.write(to: &body)
        }
        body.write(Byte.closeBrace)
    }

    /// `{"op":…` and `,"rid":…` when there is one: how every message but an event begins.
    static func writeEnvelopeStart<Output: JSONOutput>(op: String, rid: Int64?, into body: inout Output) {
        body.write(#"{"op":"#)
        JSONValue.writeString(op, into: &body)
        if let rid {
            body.write(#","rid":"#)
            JSONValue.writeInt(rid, into: &body)
        }
    }

    /// A frame of its own: `writeBody` writes the body into a `ByteSink`, and the frame, length
    /// first, is one array of its exact size.
    static func framed(_ writeBody: (inout ByteSink) -> Void) -> [UInt8] {
        ByteSink.collect { sink in
            sink.write(lengthPlaceholder)
            writeBody(&sink)
            let length = UInt32(truncatingIfNeeded: sink.count - 4)
            for offset in 0..<4 { sink.set(UInt8(truncatingIfNeeded: length >> (24 - 8 * offset)), at: offset) }
        }
    }

    private static let lengthPlaceholder: StaticString = "\0\0\0\0"

    /// Appends a length placeholder, lets `writeBody` append the body, then patches the length in.
    static func appendFrame(to buffer: inout [UInt8], _ writeBody: (inout [UInt8]) -> Void) {
        let start = buffer.count
        appendLength(0, to: &buffer)
        writeBody(&buffer)
        let length = UInt32(truncatingIfNeeded: buffer.count - start - 4)
        buffer[start] = UInt8(truncatingIfNeeded: length >> 24)
        buffer[start + 1] = UInt8(truncatingIfNeeded: length >> 16)
        buffer[start + 2] = UInt8(truncatingIfNeeded: length >> 8)
        buffer[start + 3] = UInt8(truncatingIfNeeded: length)
    }

    static func appendLength(_ length: Int, to buffer: inout [UInt8]) {
        let length = UInt32(truncatingIfNeeded: length)
        buffer.append(UInt8(truncatingIfNeeded: length >> 24))
        buffer.append(UInt8(truncatingIfNeeded: length >> 16))
        buffer.append(UInt8(truncatingIfNeeded: length >> 8))
        buffer.append(UInt8(truncatingIfNeeded: length))
    }
}
