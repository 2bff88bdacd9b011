// One constructor per code, so call sites read `throw .notFound("no such contact")`.
extension ProtocolError {
    public static func badFrame(_ message: String) -> ProtocolError { ProtocolError(.badFrame, message) }
    public static func frameTooLarge(_ message: String) -> ProtocolError { ProtocolError(.frameTooLarge, message) }
    public static func badJSON(_ message: String) -> ProtocolError { ProtocolError(.badJSON, message) }
    public static func badRequest(_ message: String) -> ProtocolError { ProtocolError(.badRequest, message) }
    public static func unknownOp(_ message: String) -> ProtocolError { ProtocolError(.unknownOp, message) }
    public static func unauthenticated(_ message: String) -> ProtocolError { ProtocolError(.unauthenticated, message) }
    public static func unsupportedVersion(_ message: String) -> ProtocolError {
        ProtocolError(.unsupportedVersion, message)
    }
    public static func replaced(_ message: String) -> ProtocolError { ProtocolError(.replaced, message) }
    public static func tooManyDevices(_ message: String) -> ProtocolError { ProtocolError(.tooManyDevices, message) }
    public static func forbidden(_ message: String) -> ProtocolError { ProtocolError(.forbidden, message) }
    public static func notFound(_ message: String) -> ProtocolError { ProtocolError(.notFound, message) }
    public static func conflict(_ message: String) -> ProtocolError { ProtocolError(.conflict, message) }
    public static func rateLimited(_ message: String) -> ProtocolError { ProtocolError(.rateLimited, message) }
    public static func overloaded(_ message: String) -> ProtocolError { ProtocolError(.overloaded, message) }
    public static func limitExceeded(_ message: String) -> ProtocolError { ProtocolError(.limitExceeded, message) }
    public static func `internal`(_ message: String) -> ProtocolError { ProtocolError(.internal, message) }

    /// What every device of a deleted account is told (§12), on either store, before it is closed.
    public static let deletedAccount = ProtocolError(.accountDeleted, "the account was deleted")
    public static let revokedDevice = ProtocolError(.revoked, "this device's credential was revoked")
}
