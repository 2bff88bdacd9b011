/// A user as its owner sees it (PROTOCOL.md §4). Only the owner ever sees `qrCode`.
public struct User: Sendable, Hashable, JSONFields {
    public static let defaultCheckInIntervalSec: Int64 = 86_400

    public var id: String
    public var name: String
    public var phone: String?
    public var qrCode: String
    public var checkInIntervalSec: Int64
    public var lastCheckInAt: Int64?
    /// Null until the first check-in.
    public var checkInDeadline: Int64?
    public var isNonResponsive: Bool
    public var alert: AlertInfo? {
        get { alertBox?.alert }
        set { alertBox = newValue.map(AlertBox.init) }
    }
    /// The alert on the heap: a user without one, as nearly every user is at any time, holds a
    /// word for it instead of 40 bytes (a loaded user per online device).
    private var alertBox: AlertBox?
    public var preferences: Preferences
    public var createdAt: Int64

    public init(
        id: String,
        name: String,
        phone: String? = nil,
        qrCode: String,
        checkInIntervalSec: Int64 = User.defaultCheckInIntervalSec,
        lastCheckInAt: Int64? = nil,
        checkInDeadline: Int64? = nil,
        isNonResponsive: Bool = false,
        alert: AlertInfo? = nil,
        preferences: Preferences = Preferences(),
        createdAt: Int64
    ) {
        self.id = id
        self.name = name
        self.phone = phone
        self.qrCode = qrCode
        self.checkInIntervalSec = checkInIntervalSec
        self.lastCheckInAt = lastCheckInAt
        self.checkInDeadline = checkInDeadline
        self.isNonResponsive = isNonResponsive
        self.alertBox = alert.map(AlertBox.init)
        self.preferences = preferences
        self.createdAt = createdAt
    }

    /// Every field of §4 in its order, nulls written out.
    public func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer) {
        writer.field("id", id)
        writer.field("name", name)
        writer.field("phone", phone)
        writer.field("qrCode", qrCode)
        writer.field("checkInIntervalSec", checkInIntervalSec)
        writer.field("lastCheckInAt", lastCheckInAt)
        writer.field("checkInDeadline", checkInDeadline)
        writer.field("isNonResponsive", isNonResponsive)
        writer.field("alert", alert)
        writer.field("preferences", preferences)
        writer.field("createdAt", createdAt)
    }

    /// Nullable fields may also be absent.
    public init(json: JSONValue) throws(ProtocolError) {
        let context = "user"
        let object = try json.documentObject(context)
        id = try object.string("id", in: context)
        name = try object.string("name", in: context)
        phone = try object.optionalString("phone", in: context)
        qrCode = try object.string("qrCode", in: context)
        checkInIntervalSec = try object.int("checkInIntervalSec", in: context)
        lastCheckInAt = try object.optionalInt("lastCheckInAt", in: context)
        checkInDeadline = try object.optionalInt("checkInDeadline", in: context)
        isNonResponsive = try object.bool("isNonResponsive", in: context)
        if let alert = object["alert"], !alert.isNull {
            alertBox = AlertBox(try AlertInfo(json: alert, context: "user.alert"))
        }
        guard let preferences = object["preferences"] else { throw .badRequest("missing field 'user.preferences'") }
        self.preferences = try Preferences(json: preferences, context: "user.preferences")
        createdAt = try object.int("createdAt", in: context)
    }
}

/// An immutable `AlertInfo` behind a reference; setting `User.alert` replaces it.
private final class AlertBox: Sendable, Hashable {
    let alert: AlertInfo

    init(_ alert: AlertInfo) {
        self.alert = alert
    }

    static func == (lhs: AlertBox, rhs: AlertBox) -> Bool { lhs === rhs || lhs.alert == rhs.alert }
    func hash(into hasher: inout Hasher) { hasher.combine(alert) }
}
