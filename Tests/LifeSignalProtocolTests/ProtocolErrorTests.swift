import LifeSignalProtocol
import Testing

@Suite("ProtocolError")
struct ProtocolErrorTests {
    /// PROTOCOL.md §9: code → whether the broker closes the connection.
    static let table: [(String, Bool)] = [
        ("bad_frame", true), ("frame_too_large", true), ("bad_json", false), ("bad_request", false),
        ("unknown_op", false), ("unauthenticated", true), ("unsupported_version", true), ("replaced", true),
        ("too_many_devices", true), ("forbidden", false), ("not_found", false), ("conflict", false),
        ("rate_limited", false), ("overloaded", false), ("limit_exceeded", false), ("internal", false),
    ]

    @Test func codesMatchTheTable() {
        #expect(ProtocolError.Code.allV1.map(\.rawValue) == Self.table.map(\.0))
        for (raw, closes) in Self.table {
            #expect(ProtocolError.Code(rawValue: raw).closesConnection == closes, "\(raw)")
        }
    }

    @Test func conveniencesUseTheirCode() {
        let pairs: [(ProtocolError, ProtocolError.Code)] = [
            (.badFrame("m"), .badFrame), (.frameTooLarge("m"), .frameTooLarge), (.badJSON("m"), .badJSON),
            (.badRequest("m"), .badRequest), (.unknownOp("m"), .unknownOp), (.unauthenticated("m"), .unauthenticated),
            (.unsupportedVersion("m"), .unsupportedVersion), (.replaced("m"), .replaced),
            (.tooManyDevices("m"), .tooManyDevices), (.forbidden("m"), .forbidden), (.notFound("m"), .notFound),
            (.conflict("m"), .conflict), (.rateLimited("m"), .rateLimited), (.overloaded("m"), .overloaded),
            (.limitExceeded("m"), .limitExceeded), (.internal("m"), .internal),
        ]
        #expect(pairs.map(\.1) == ProtocolError.Code.allV1)
        for (error, code) in pairs {
            #expect(error == ProtocolError(code, "m"))
        }
    }

    @Test func unknownCodesAreKeptAndDoNotClose() {
        let code = ProtocolError.Code(rawValue: "future_code")
        #expect(code.rawValue == "future_code")
        #expect(!code.closesConnection)
    }

    @Test func description() {
        #expect(ProtocolError.notFound("no such contact").description == "not_found: no such contact")
    }
}
