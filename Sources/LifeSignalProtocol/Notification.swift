/// A stored notification (PROTOCOL.md §4).
///
/// Modules that also import Foundation see two `Notification` types; they write
/// `LifeSignalProtocol.Notification` or declare `typealias Notification = LifeSignalProtocol.Notification`.
public struct Notification: Sendable, Hashable, JSONFields {
    public var id: String
    public var type: NotificationType
    public var title: String
    public var message: String
    public var timestamp: Int64
    public var isRead: Bool
    public var relatedContactID: String?
    public var relatedAlertID: String?
    public var relatedPingID: String?
    public var contactData: ContactData?
    /// The alert an `alert` or `alertCancelled` notification is about (v1.1).
    public var alertData: AlertInfo?

    public init(
        id: String,
        type: NotificationType,
        title: String,
        message: String,
        timestamp: Int64,
        isRead: Bool = false,
        relatedContactID: String? = nil,
        relatedAlertID: String? = nil,
        relatedPingID: String? = nil,
        contactData: ContactData? = nil,
        alertData: AlertInfo? = nil
    ) {
        self.id = id
        self.type = type
        self.title = title
        self.message = message
        self.timestamp = timestamp
        self.isRead = isRead
        self.relatedContactID = relatedContactID
        self.relatedAlertID = relatedAlertID
        self.relatedPingID = relatedPingID
        self.contactData = contactData
        self.alertData = alertData
    }

    /// Every field of §4 in its order, nulls written out.
    public func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer) {
        writer.field("id", id)
        writer.field("type", type.rawValue)
        writer.field("title", title)
        writer.field("message", message)
        writer.field("timestamp", timestamp)
        writer.field("isRead", isRead)
        writer.field("relatedContactID", relatedContactID)
        writer.field("relatedAlertID", relatedAlertID)
        writer.field("relatedPingID", relatedPingID)
        writer.field("contactData", contactData)
        writer.field("alertData", alertData)
    }

    /// A notification as a device reads it, nil when its `type` is one this version does not
    /// know (a newer broker's): skipped rather than refused, as an unknown event is (§6).
    public static func ofKnownType(json: JSONValue) throws(ProtocolError) -> Notification? {
        if case .object(let object) = json, let type = object["type"]?.stringValue, NotificationType(rawValue: type) == nil {
            return nil
        }
        return try Notification(json: json)
    }

    /// Nullable fields may also be absent.
    public init(json: JSONValue) throws(ProtocolError) {
        let context = "notification"
        let object = try json.documentObject(context)
        id = try object.string("id", in: context)
        type = try object.enumValue("type", in: context)
        title = try object.string("title", in: context)
        message = try object.string("message", in: context)
        timestamp = try object.int("timestamp", in: context)
        isRead = try object.bool("isRead", in: context)
        relatedContactID = try object.optionalString("relatedContactID", in: context)
        relatedAlertID = try object.optionalString("relatedAlertID", in: context)
        relatedPingID = try object.optionalString("relatedPingID", in: context)
        if let contactData = object["contactData"], !contactData.isNull {
            self.contactData = try ContactData(json: contactData, context: "notification.contactData")
        } else {
            contactData = nil
        }
        if let alertData = object["alertData"], !alertData.isNull {
            self.alertData = try AlertInfo(json: alertData, context: "notification.alertData")
        } else {
            alertData = nil
        }
    }
}
