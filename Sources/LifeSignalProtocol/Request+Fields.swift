// Field access for operation handlers; errors are `bad_request` naming the field (PROTOCOL.md §2).
extension Request {
    public func string(_ key: String) throws(ProtocolError) -> String { try fields.string(key) }
    public func optionalString(_ key: String) throws(ProtocolError) -> String? { try fields.optionalString(key) }
    public func bool(_ key: String) throws(ProtocolError) -> Bool { try fields.bool(key) }
    public func optionalBool(_ key: String) throws(ProtocolError) -> Bool? { try fields.optionalBool(key) }
    public func int(_ key: String) throws(ProtocolError) -> Int64 { try fields.int(key) }
    public func optionalInt(_ key: String) throws(ProtocolError) -> Int64? { try fields.optionalInt(key) }
    public func optionalObject(_ key: String) throws(ProtocolError) -> JSONObject? { try fields.optionalObject(key) }
    public func has(_ key: String) -> Bool { fields.has(key) }
}
