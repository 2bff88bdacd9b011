/// An error that travels on the wire as `{"op":"error","code":…,"message":…}` (PROTOCOL.md §9).
///
/// A struct with an open `Code` rather than an enum (PSQLError style), so that codes can be added
/// without breaking anyone's exhaustive switch, and a client keeps codes it does not know yet.
public struct ProtocolError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        public static let badFrame = Code(rawValue: "bad_frame")
        public static let frameTooLarge = Code(rawValue: "frame_too_large")
        public static let badJSON = Code(rawValue: "bad_json")
        public static let badRequest = Code(rawValue: "bad_request")
        public static let unknownOp = Code(rawValue: "unknown_op")
        public static let unauthenticated = Code(rawValue: "unauthenticated")
        public static let unsupportedVersion = Code(rawValue: "unsupported_version")
        public static let replaced = Code(rawValue: "replaced")
        public static let tooManyDevices = Code(rawValue: "too_many_devices")
        public static let forbidden = Code(rawValue: "forbidden")
        public static let notFound = Code(rawValue: "not_found")
        public static let conflict = Code(rawValue: "conflict")
        public static let rateLimited = Code(rawValue: "rate_limited")
        public static let overloaded = Code(rawValue: "overloaded")
        /// v1.1: a per-user quota (PROTOCOL.md §10) is reached; the request was not run.
        public static let limitExceeded = Code(rawValue: "limit_exceeded")
        public static let `internal` = Code(rawValue: "internal")
        /// v1.2: this device's credential was revoked (§12); the connection closes.
        public static let revoked = Code(rawValue: "revoked")
        /// v1.2: the account was deleted (§12); the connection closes.
        public static let accountDeleted = Code(rawValue: "account_deleted")

        /// Every code of protocol version 1.
        public static let allV1: [Code] = [
            .badFrame, .frameTooLarge, .badJSON, .badRequest, .unknownOp, .unauthenticated, .unsupportedVersion,
            .replaced, .tooManyDevices, .forbidden, .notFound, .conflict, .rateLimited, .overloaded, .limitExceeded,
            .internal,
        ]

        /// Whether the broker closes the connection after sending this error (the §9 table).
        /// Unknown codes do not: a client should not treat a newer broker's error as fatal.
        public var closesConnection: Bool {
            switch self {
            case .badFrame, .frameTooLarge, .unauthenticated, .unsupportedVersion, .replaced, .tooManyDevices,
                 .revoked, .accountDeleted:
                return true
            default:
                return false
            }
        }

        public var description: String { rawValue }
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
