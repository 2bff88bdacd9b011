/// `Notification.contactData` (PROTOCOL.md §4): who the notification is about, and what happened.
/// `role` is the other user's role in the recipient's view after the change.
public struct ContactData: Sendable, Hashable, JSONFields {
    public var id: String
    public var name: String
    public var role: ContactRole
    public var action: ContactAction

    public init(id: String, name: String, role: ContactRole, action: ContactAction) {
        self.id = id
        self.name = name
        self.role = role
        self.action = action
    }

    public func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer) {
        writer.field("id", id)
        writer.field("name", name)
        writer.field("role", role.rawValue)
        writer.field("action", action.rawValue)
    }

    public init(json: JSONValue) throws(ProtocolError) {
        try self.init(json: json, context: "contactData")
    }

    init(json: JSONValue, context: String) throws(ProtocolError) {
        let object = try json.documentObject(context)
        id = try object.string("id", in: context)
        name = try object.string("name", in: context)
        role = try object.enumValue("role", in: context)
        action = try object.enumValue("action", in: context)
    }
}
