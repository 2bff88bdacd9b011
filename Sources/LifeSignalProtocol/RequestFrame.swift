/// A device's request as it goes on the wire (PROTOCOL.md §1–§2): `{"op":…,"rid":…,…fields}`,
/// op and rid first so that captures read naturally. Written straight into an output buffer: the
/// client library and the load generator (thousands of devices on one loop) send with it.
public enum RequestFrame {
    /// Appends one framed request; fields named `op` or `rid` are left out (the frame's own win).
    public static func append(op: String, rid: Int64, _ fields: JSONObject, to buffer: inout [UInt8]) {
        FrameEncoder.appendFrame(to: &buffer) { body in
            body.append(contentsOf: opPrefix)
            JSONValue.writeString(op, into: &body)
            body.append(contentsOf: ridPrefix)
            JSONValue.writeInt(rid, into: &body)
            for (key, value) in fields where key != "op" && key != "rid" {
                body.append(Byte.comma)
                JSONValue.writeString(key, into: &body)
                body.append(Byte.colon)
                value.write(into: &body)
            }
            body.append(Byte.closeBrace)
        }
    }

    private static let opPrefix: [UInt8] = Array(#"{"op":"#.utf8)
    private static let ridPrefix: [UInt8] = Array(#","rid":"#.utf8)
}
