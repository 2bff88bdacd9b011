/// Whose a QR code is: the `contact` of `qr.lookup`'s answer (PROTOCOL.md §12, v1.2), so an app
/// can ask "Add Bob?" before adding anyone.
public struct QRCodeOwner: Sendable, Equatable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    public var json: JSONValue {
        .object(JSONObject(uniquePairs: [("id", .string(id)), ("name", .string(name))]))
    }

    public init(json: JSONValue) throws(ProtocolError) {
        let context = "contact"
        let object = try json.documentObject(context)
        id = try object.string("id", in: context)
        name = try object.string("name", in: context)
    }
}
