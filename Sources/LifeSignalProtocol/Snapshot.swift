/// The full state a device receives when it cannot resume from events (PROTOCOL.md §3):
/// `{"op":"snapshot","seq":…,"user":…,"contacts":[…],"notifications":[…],"unreadCount":…}`.
public struct Snapshot: Sendable, Equatable, JSONFields {
    /// The user's last event seq; live events continue from `seq + 1`.
    public var seq: Int64
    public var user: User
    public var contacts: [Contact]
    public var notifications: [Notification]
    public var unreadCount: Int

    public init(seq: Int64, user: User, contacts: [Contact], notifications: [Notification], unreadCount: Int) {
        self.seq = seq
        self.user = user
        self.contacts = contacts
        self.notifications = notifications
        self.unreadCount = unreadCount
    }

    /// The whole frame body, `op` included: its tree (`json`) and its bytes (`Outbound.snapshot`).
    public func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer) {
        writer.field("op", Op.snapshot)
        writer.field("seq", seq)
        writer.field("user", user)
        writer.field("contacts", documents: contacts)
        writer.field("notifications", documents: notifications)
        writer.field("unreadCount", Int64(unreadCount))
    }

    /// Reads a snapshot body; `op` is not checked.
    public init(json: JSONValue) throws(ProtocolError) {
        let context = "snapshot"
        let object = try json.documentObject(context)
        seq = try object.int("seq", in: context)
        guard let user = object["user"] else { throw .badRequest("missing field 'snapshot.user'") }
        self.user = try User(json: user)
        var contacts: [Contact] = []
        for contact in try object.array("contacts", in: context) {
            contacts.append(try Contact(json: contact))
        }
        self.contacts = contacts
        var notifications: [Notification] = []
        // A newer broker's types are left out: the rest of the state still reads.
        for json in try object.array("notifications", in: context) {
            if let notification = try Notification.ofKnownType(json: json) { notifications.append(notification) }
        }
        self.notifications = notifications
        let unread = try object.int("unreadCount", in: context)
        guard let unreadCount = Int(exactly: unread), unreadCount >= 0 else {
            throw .badRequest("field 'snapshot.unreadCount' must not be negative")
        }
        self.unreadCount = unreadCount
    }
}
