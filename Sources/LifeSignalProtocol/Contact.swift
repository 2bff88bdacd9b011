/// One user's view of another (PROTOCOL.md §4). `id` is the other user's id.
///
/// The check-in and alert fields mirror the other user's and are filled only where the other user
/// is my dependent; the broker leaves them null/false otherwise.
public struct Contact: Sendable, Hashable, JSONFields {
    public var id: String
    public var name: String
    /// The other user watches over me.
    public var isResponder: Bool
    /// I watch over the other user.
    public var isDependent: Bool
    public var addedAt: Int64
    /// When the other user pinged me, while that ping is pending.
    public var incomingPingAt: Int64?
    /// When I pinged the other user, while that ping is pending.
    public var outgoingPingAt: Int64?
    public var lastCheckInAt: Int64?
    public var checkInDeadline: Int64?
    public var isNonResponsive: Bool
    /// The dependent's active alert (v1.1), so that a responder sees what it says.
    public var alert: AlertInfo?

    public init(
        id: String,
        name: String,
        isResponder: Bool,
        isDependent: Bool,
        addedAt: Int64,
        incomingPingAt: Int64? = nil,
        outgoingPingAt: Int64? = nil,
        lastCheckInAt: Int64? = nil,
        checkInDeadline: Int64? = nil,
        isNonResponsive: Bool = false,
        alert: AlertInfo? = nil
    ) {
        self.id = id
        self.name = name
        self.isResponder = isResponder
        self.isDependent = isDependent
        self.addedAt = addedAt
        self.incomingPingAt = incomingPingAt
        self.outgoingPingAt = outgoingPingAt
        self.lastCheckInAt = lastCheckInAt
        self.checkInDeadline = checkInDeadline
        self.isNonResponsive = isNonResponsive
        self.alert = alert
    }

    /// Derived from `alert`, never stored beside it.
    public var hasActiveAlert: Bool { alert != nil }

    /// Derived from the two flags; sent as `role` for clients that want one value.
    public var role: ContactRole { ContactRole(isResponder: isResponder, isDependent: isDependent) }

    /// Every field of §4 in its order, nulls written out.
    public func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer) {
        writer.field("id", id)
        writer.field("name", name)
        writer.field("isResponder", isResponder)
        writer.field("isDependent", isDependent)
        writer.field("role", role.rawValue)
        writer.field("addedAt", addedAt)
        writer.field("incomingPingAt", incomingPingAt)
        writer.field("outgoingPingAt", outgoingPingAt)
        writer.field("lastCheckInAt", lastCheckInAt)
        writer.field("checkInDeadline", checkInDeadline)
        writer.field("isNonResponsive", isNonResponsive)
        writer.field("hasActiveAlert", hasActiveAlert)
        writer.field("alert", alert)
    }

    /// `role` and `hasActiveAlert` are not read back: they are derived. Nullable fields may also be
    /// absent (a v1.0 broker sends no `alert`).
    public init(json: JSONValue) throws(ProtocolError) {
        let context = "contact"
        let object = try json.documentObject(context)
        id = try object.string("id", in: context)
        name = try object.string("name", in: context)
        isResponder = try object.bool("isResponder", in: context)
        isDependent = try object.bool("isDependent", in: context)
        addedAt = try object.int("addedAt", in: context)
        incomingPingAt = try object.optionalInt("incomingPingAt", in: context)
        outgoingPingAt = try object.optionalInt("outgoingPingAt", in: context)
        lastCheckInAt = try object.optionalInt("lastCheckInAt", in: context)
        checkInDeadline = try object.optionalInt("checkInDeadline", in: context)
        isNonResponsive = try object.bool("isNonResponsive", in: context)
        if let alert = object["alert"], !alert.isNull {
            self.alert = try AlertInfo(json: alert, context: "contact.alert")
        } else {
            alert = nil
        }
    }
}
