/// PROTOCOL §12: the id a client gives one changing request (`opId`), so that a request resent
/// because its answer was not seen acts once.
public enum OperationID {
    public static let maxLength = 64

    /// The request's `opId`, nil when it has none (null counts as absent); `bad_request` unless it
    /// is 1–64 characters of `[A-Za-z0-9._:-]`.
    public static func of(_ request: Request) throws(ProtocolError) -> String? {
        guard let id = try request.optionalString(FieldName.opID) else { return nil }
        guard (1...maxLength).contains(id.utf8.count), id.utf8.allSatisfy(isAllowed) else {
            throw ProtocolError(.badRequest, "field 'opId' must be 1–\(maxLength) characters of A-Z a-z 0-9 . _ : -")
        }
        return id
    }

    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
             UInt8(ascii: "-"):
            true
        default:
            false
        }
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
