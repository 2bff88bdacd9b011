import LifeSignalProtocol
import Testing

@Suite("Validate")
struct ValidateTests {
    /// The error thrown by `body`, or nil.
    static func failure<T>(_ body: () throws(ProtocolError) -> T) -> ProtocolError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    static func expectBadRequest<T>(
        naming field: String, _ body: () throws(ProtocolError) -> T, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let error = failure(body)
        #expect(error?.code == .badRequest, sourceLocation: sourceLocation)
        #expect(
            error?.message.contains("'\(field)'") == true, "\(String(describing: error))",
            sourceLocation: sourceLocation)
    }

    @Test func name() throws {
        #expect(try Validate.name("  Alice \n") == "Alice")
        #expect(try Validate.name("A") == "A")
        #expect(try Validate.name(String(repeating: "x", count: 100)) == String(repeating: "x", count: 100))
        #expect(try Validate.name("  " + String(repeating: "x", count: 100) + "  ").count == 100)
        // Characters, not bytes: 100 emoji are 100 characters.
        #expect(try Validate.name(String(repeating: "👩‍👩‍👧", count: 100)).count == 100)
        #expect(try Validate.name("Zoë Ångström") == "Zoë Ångström")
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in try Validate.name("") }
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in try Validate.name(" \t\n ") }
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in
            try Validate.name(String(repeating: "x", count: 101))
        }
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in try Validate.name("Al\nice") }
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in try Validate.name("bell\u{7}") }
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in try Validate.name("c1\u{85}x") }
        Self.expectBadRequest(naming: "displayName") { () throws(ProtocolError) in
            try Validate.name("", field: "displayName")
        }
    }

    @Test func message() throws {
        #expect(try Validate.message("") == "")
        #expect(try Validate.message("line\nbreak") == "line\nbreak")
        #expect(try Validate.message(String(repeating: "é", count: 500)).count == 500)
        Self.expectBadRequest(naming: "message") { () throws(ProtocolError) in
            try Validate.message(String(repeating: "m", count: 501))
        }
    }

    @Test func deviceID() throws {
        #expect(try Validate.deviceID("alice-phone") == "alice-phone")
        #expect(try Validate.deviceID("A.z_0:9-") == "A.z_0:9-")
        #expect(try Validate.deviceID(String(repeating: "d", count: 64)).count == 64)
        for bad in ["", String(repeating: "d", count: 65), "a b", "é", "a/b", "a\nb", "a@b"] {
            Self.expectBadRequest(naming: "device") { () throws(ProtocolError) in try Validate.deviceID(bad) }
        }
    }

    @Test func pushToken() throws {
        #expect(try Validate.pushToken("t") == "t")
        #expect(try Validate.pushToken(String(repeating: "t", count: 4096)).count == 4096)
        #expect(try Validate.pushToken(String(repeating: "é", count: 4096)).count == 4096)
        Self.expectBadRequest(naming: "token") { () throws(ProtocolError) in try Validate.pushToken("") }
        Self.expectBadRequest(naming: "token") { () throws(ProtocolError) in
            try Validate.pushToken(String(repeating: "t", count: 4097))
        }
    }

    @Test func checkInInterval() throws {
        #expect(try Validate.checkInInterval(60, minimum: 60) == 60)
        #expect(try Validate.checkInInterval(2_592_000, minimum: 60) == 2_592_000)
        #expect(try Validate.checkInInterval(1, minimum: 1) == 1)
        for bad: Int64 in [59, 2_592_001, 0, -1, .max] {
            Self.expectBadRequest(naming: "checkInIntervalSec") { () throws(ProtocolError) in
                try Validate.checkInInterval(bad, minimum: 60)
            }
        }
    }

    @Test func id() throws {
        #expect(try Validate.id("u_1", field: "contactId") == "u_1")
        #expect(try Validate.id(String(repeating: "i", count: 64), field: "id").count == 64)
        Self.expectBadRequest(naming: "contactId") { () throws(ProtocolError) in
            try Validate.id("", field: "contactId")
        }
        Self.expectBadRequest(naming: "before") { () throws(ProtocolError) in
            try Validate.id(String(repeating: "i", count: 65), field: "before")
        }
    }

    @Test func phone() throws {
        #expect(try Validate.phone("  +1 555 0100 ") == "+1 555 0100")
        #expect(try Validate.phone("") == "")
        #expect(try Validate.phone(String(repeating: "5", count: 32)).count == 32)
        #expect(try Validate.phone(" " + String(repeating: "5", count: 32) + " ").count == 32)
        Self.expectBadRequest(naming: "phone") { () throws(ProtocolError) in
            try Validate.phone(String(repeating: "5", count: 33))
        }
        Self.expectBadRequest(naming: "phone") { () throws(ProtocolError) in try Validate.phone("555\u{0}1") }
    }
}
