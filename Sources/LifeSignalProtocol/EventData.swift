/// An event's `data` (PROTOCOL.md §6). The events of every ping, check-in and notification carry
/// one document under one key and are written straight into the frame from it; the rest carry
/// any JSON object.
public enum EventData: Sendable, Equatable, ExpressibleByDictionaryLiteral, JSONFields {
    /// `{"contact": …}`
    case contact(Contact)
    /// `{"notification": …}`
    case notification(Notification)
    /// `{"user": …}`
    case user(User)
    case object(JSONObject)

    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements))
    }

    public func writeFields<Writer: JSONFieldWriter>(to writer: inout Writer) {
        switch self {
        case .contact(let contact): writer.field("contact", contact)
        case .notification(let notification): writer.field("notification", notification)
        case .user(let user): writer.field("user", user)
        case .object(let object): for (key, value) in object { writer.field(named: key, value) }
        }
    }
}
