/// PROTOCOL §12: the id a client gives one changing request (`opId`), so that a request resent
/// because its answer was not seen acts once.
public enum OperationID {
    public static let maxLength = 64

    /// The request's `opId`, nil when it has none (null counts as absent); `bad_request` unless it
    /// is 1–64 characters of `[A-Za-z0-9._:-]`.
    public static func of(_ request: Request) throws(ProtocolError) -> String? {
        guard let id = try request.optionalString(FieldName.opID) else { return nil }
        return try Validate.deviceName(id, field: FieldName.opID, maxLength: maxLength)
    }
}

extension DeviceCommand {
    /// Whether the command may change state, and so is kept under its `opId` (§12). A read is
    /// answered afresh however often it is sent.
    public var changesState: Bool {
        switch self {
        case .devicesList, .contactsList, .notificationsList, .qrLookup: false
        default: true
        }
    }
}
