import LifeSignalProtocol

/// Request frames as the load generator sends them: `{"op":…,"rid":…,…fields}`.
enum LoadFrames {
    /// Appends one framed request to `buffer` (serialized in place by `FrameEncoder`).
    static func appendRequest(op: String, rid: Int64, _ fields: JSONObject, to buffer: inout [UInt8]) {
        var object: JSONObject = ["op": .string(op), "rid": .int(rid)]
        for (key, value) in fields where key != "op" && key != "rid" {
            object[key] = value
        }
        FrameEncoder.append(.object(object), to: &buffer)
    }
}
