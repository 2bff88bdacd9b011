/// The active alert inside `User.alert` (PROTOCOL.md §4): `{id, startedAt, message|null}`.
public struct AlertInfo: Sendable, Hashable, JSONFields {
    public var id: String
    public var startedAt: Int64
    public var message: String?

    public init(id: String, startedAt: Int64, message: String? = nil) {
        self.id = id
        self.startedAt = startedAt
        self.message = message
    }

    public func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer) {
        writer.field("id", id)
        writer.field("startedAt", startedAt)
        writer.field("message", message)
    }

    public init(json: JSONValue) throws(ProtocolError) {
        try self.init(json: json, context: "alert")
    }

    init(json: JSONValue, context: String) throws(ProtocolError) {
        let object = try json.documentObject(context)
        id = try object.string("id", in: context)
        startedAt = try object.int("startedAt", in: context)
        message = try object.optionalString("message", in: context)
    }
}
