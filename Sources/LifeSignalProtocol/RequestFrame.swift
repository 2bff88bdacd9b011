/// A device's request as it goes on the wire (PROTOCOL.md §1–§2): `{"op":…,"rid":…,…fields}`,
/// op and rid first so that captures read naturally. Written straight into an output buffer: the
/// client library and the load generator (thousands of devices on one loop) send with it.
public enum RequestFrame {
    /// Appends one framed request; fields named `op` or `rid` are left out (the frame's own win).
    public static func append(op: String, rid: Int64, _ fields: JSONObject, to buffer: inout [UInt8]) {
        FrameEncoder.appendMessage(op: op, rid: rid, fields, to: &buffer)
    }
}
