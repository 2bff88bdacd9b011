/// Encodes frames (PROTOCOL.md §1): a 4-byte big-endian length, then the compact JSON body.
public enum FrameEncoder {
    public static func frame(_ object: JSONValue) -> [UInt8] {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(128)
        append(object, to: &buffer)
        return buffer
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
        appendFrame(to: &buffer) { object.write(into: &$0) }
    }

    /// Appends `{"op":…,"rid":…,…fields}` framed: a request, or an `ok` with its fields. Fields
    /// named `op` or `rid` are left out (the message's own win); no rid, no `rid` field.
    static func appendMessage(op: String, rid: Int64?, _ fields: JSONObject, to buffer: inout [UInt8]) {
        appendFrame(to: &buffer) { body in
            writeEnvelopeStart(op: op, rid: rid, into: &body)
            for (key, value) in fields where key != "op" && key != "rid" {
                body.append(Byte.comma)
                JSONValue.writeString(key, into: &body)
                body.append(Byte.colon)
                value.write(into: &body)
            }
            body.append(Byte.closeBrace)
        }
    }

    /// `{"op":…` and `,"rid":…` when there is one: how every message but an event begins.
    static func writeEnvelopeStart(op: String, rid: Int64?, into body: inout [UInt8]) {
        body.append(contentsOf: #"{"op":"#.utf8)
        JSONValue.writeString(op, into: &body)
        if let rid {
            body.append(contentsOf: #","rid":"#.utf8)
            JSONValue.writeInt(rid, into: &body)
        }
    }

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
