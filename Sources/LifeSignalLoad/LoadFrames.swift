import LifeSignalProtocol

/// Request frames as the load generator sends them: `{"op":…,"rid":…,…fields}`, and the cheap
/// reading of the answers it needs most.
///
/// Measured (perf, 100 devices × 16 keepalives in flight, release): building a `JSONObject` and
/// serializing it took 24% of the generator's CPU and `ServerMessage.parse` of each `ok` 32%,
/// CPU the broker then lacks on 2 shared cores. So bare requests are written Outbound-style,
/// straight into the output, and an `ok` whose fields nobody reads is recognized by its prefix.
package enum LoadFrames {
    /// Appends one framed request with fields (set-up, scenario requests): serialized by `FrameEncoder`.
    package static func appendRequest(op: String, rid: Int64, _ fields: JSONObject, to buffer: inout [UInt8]) {
        guard !fields.isEmpty else { return appendBareRequest(op: op, rid: rid, to: &buffer) }
        var object: JSONObject = ["op": .string(op), "rid": .int(rid)]
        for (key, value) in fields where key != "op" && key != "rid" {
            object[key] = value
        }
        FrameEncoder.append(.object(object), to: &buffer)
    }

    /// Appends `{"op":"<op>","rid":N}` framed. `op` is a protocol op name: plain ASCII, no escaping.
    package static func appendBareRequest(op: String, rid: Int64, to buffer: inout [UInt8]) {
        let start = buffer.count
        buffer.append(contentsOf: [0, 0, 0, 0])  // length, patched below
        buffer.append(contentsOf: opPrefix)
        buffer.append(contentsOf: op.utf8)
        buffer.append(contentsOf: ridPrefix)
        appendDecimal(rid, to: &buffer)
        buffer.append(UInt8(ascii: "}"))
        let length = UInt32(truncatingIfNeeded: buffer.count - start - 4)
        buffer[start] = UInt8(truncatingIfNeeded: length >> 24)
        buffer[start + 1] = UInt8(truncatingIfNeeded: length >> 16)
        buffer[start + 2] = UInt8(truncatingIfNeeded: length >> 8)
        buffer[start + 3] = UInt8(truncatingIfNeeded: length)
    }

    /// The rid of a body that starts `{"op":"ok","rid":N,` or `…N}`, which is how the broker writes
    /// every `ok` (`Outbound.appendOK`); nil for anything else, which then gets a full parse.
    package static func okRid(_ body: UnsafeRawBufferPointer) -> Int64? {
        let prefix = okPrefix
        guard body.count > prefix.count else { return nil }
        for index in 0..<prefix.count where body[index] != prefix[index] { return nil }
        var index = prefix.count
        var rid: Int64 = 0
        var digits = 0
        while index < body.count, body[index] >= UInt8(ascii: "0"), body[index] <= UInt8(ascii: "9"), digits < 18 {
            rid = rid * 10 + Int64(body[index] - UInt8(ascii: "0"))
            index += 1
            digits += 1
        }
        guard digits > 0, index < body.count, body[index] == UInt8(ascii: ",") || body[index] == UInt8(ascii: "}")
        else { return nil }
        return rid
    }

    private static let opPrefix: [UInt8] = Array(#"{"op":""#.utf8)
    private static let ridPrefix: [UInt8] = Array(#"","rid":"#.utf8)
    private static let okPrefix: [UInt8] = Array(#"{"op":"ok","rid":"#.utf8)

    private static func appendDecimal(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let first = buffer.count
        repeat {
            buffer.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        buffer[first...].reverse()  // digits came least significant first
    }
}
