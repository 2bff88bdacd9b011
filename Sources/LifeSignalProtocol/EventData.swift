/// An event's `data` (PROTOCOL.md §6). The events of every ping, check-in and notification carry
/// one document under one key and are written straight into the frame from it; the rest carry
/// any JSON object.
public enum EventData: Sendable, Equatable, ExpressibleByDictionaryLiteral {
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

    public var json: JSONValue {
        switch self {
        case .contact(let contact): ["contact": contact.json]
        case .notification(let notification): ["notification": notification.json]
        case .user(let user): ["user": user.json]
        case .object(let object): .object(object)
        }
    }

    /// Appends the data as compact JSON, byte for byte what `json.write(into:)` appends.
    public func write(into buffer: inout [UInt8]) {
        switch self {
        case .contact(let contact): Self.write("contact", contact, into: &buffer)
        case .notification(let notification): Self.write("notification", notification, into: &buffer)
        case .user(let user): Self.write("user", user, into: &buffer)
        case .object(let object): JSONValue.writeObject(object, into: &buffer)
        }
    }

    private static func write(_ key: StaticString, _ document: some JSONFields, into buffer: inout [UInt8]) {
        buffer.append(Byte.openBrace)
        buffer.append(Byte.quote)
        buffer.append(contentsOf: UnsafeBufferPointer(start: key.utf8Start, count: key.utf8CodeUnitCount))
        buffer.append(Byte.quote)
        buffer.append(Byte.colon)
        document.write(into: &buffer)
        buffer.append(Byte.closeBrace)
    }
}
