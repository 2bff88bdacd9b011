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

    /// The `opId` under which `request`'s outcome is kept, if it has a valid one and its op is kept.
    public static func kept(by request: Request) -> String? {
        guard !unkeptOps.contains(request.op) else { return nil }
        return (try? of(request)) ?? nil
    }

    /// Ops whose outcome is not kept: reads, answered afresh however often they are sent, and
    /// `account.delete`, which erases the user's kept outcomes with the rest of the account (and
    /// the credentials that could send it again).
    static let unkeptOps: Set<String> = [Op.devicesList, Op.contactsList, Op.notificationsList, Op.qrLookup,
                                         Op.accountDelete]
}

extension DeviceCommand {
    /// Whether its outcome is kept under its `opId` (§12).
    public var keepsOutcome: Bool { !OperationID.unkeptOps.contains(op) }
}
