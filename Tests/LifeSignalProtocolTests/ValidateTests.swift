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
        // 100 four-byte emoji: 100 characters and 400 bytes, both bounds at once.
        #expect(try Validate.name(String(repeating: "😀", count: 100)).count == 100)
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

    /// One Character that is 20 KB: the attack §10 v1.1 stops. It passed the 100-character bound and
    /// was copied into every contact's events.
    @Test func nameIsBoundedInBytes() throws {
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in
            try Validate.name("a" + String(repeating: "\u{301}", count: 10_000))
        }
        // "a" and 199 combining acute accents: one character of 399 bytes, then 401.
        #expect(try Validate.name("a" + String(repeating: "\u{301}", count: 199)).utf8.count == 399)
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in
            try Validate.name("a" + String(repeating: "\u{301}", count: 200))
        }
        // 20 family emoji of 18 bytes (360) fit; 23 (414) do not, though only 23 characters.
        #expect(try Validate.name(String(repeating: "👩‍👩‍👧", count: 20)).count == 20)
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in
            try Validate.name(String(repeating: "👩‍👩‍👧", count: 23))
        }
        // Bytes count after trimming, as characters do.
        let fourHundred = String(repeating: "😀", count: 100)
        #expect(try Validate.name(" \u{3000}" + fourHundred + "\n ") == fourHundred)
        Self.expectBadRequest(naming: "name") { () throws(ProtocolError) in
            // 100 characters, 401 bytes.
            try Validate.name(String(repeating: "😀", count: 99) + "e\u{301}\u{301}")
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

    @Test func messageIsBoundedInBytes() throws {
        // 500 four-byte emoji: both bounds at once.
        #expect(try Validate.message(String(repeating: "😀", count: 500)).utf8.count == 2_000)
        Self.expectBadRequest(naming: "message") { () throws(ProtocolError) in
            // 500 characters, 2,001 bytes.
            try Validate.message(String(repeating: "😀", count: 499) + "e\u{301}\u{301}")
        }
        // One character of 1,999 bytes, then of 2,001.
        #expect(try Validate.message("e" + String(repeating: "\u{301}", count: 999)).count == 1)
        Self.expectBadRequest(naming: "message") { () throws(ProtocolError) in
            try Validate.message("e" + String(repeating: "\u{301}", count: 1_000))
        }
        Self.expectBadRequest(naming: "message") { () throws(ProtocolError) in
            try Validate.message("a" + String(repeating: "\u{301}", count: 10_000))
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
        #expect(try Validate.pushToken("fcm:APA91b-x_y.z ~!") == "fcm:APA91b-x_y.z ~!")
        Self.expectBadRequest(naming: "token") { () throws(ProtocolError) in try Validate.pushToken("") }
        Self.expectBadRequest(naming: "token") { () throws(ProtocolError) in
            try Validate.pushToken(String(repeating: "t", count: 4097))
        }
    }

    /// Bytes of printable ASCII: 4,096 two-byte characters were accepted as 4,096 "characters".
    @Test func pushTokenIsBytesOfPrintableASCII() throws {
        let bad = [
            String(repeating: "é", count: 4096), String(repeating: "é", count: 2048), "é", "tok\u{7F}", "tok\n",
            "tok\u{0}", "\u{85}", "t\u{301}",
        ]
        for token in bad {
            Self.expectBadRequest(naming: "token") { () throws(ProtocolError) in try Validate.pushToken(token) }
        }
    }

    @Test func platform() throws {
        #expect(try Validate.platform("ios") == "ios")
        #expect(try Validate.platform("android-14.1_x:y") == "android-14.1_x:y")
        #expect(try Validate.platform(String(repeating: "p", count: 64)).count == 64)
        let bad = [
            "", String(repeating: "p", count: 65), "i os", "é", "a/b", "a\nb",
            // 64 characters, each a letter under 100 combining marks.
            String(repeating: "p" + String(repeating: "\u{301}", count: 100), count: 64),
        ]
        for platform in bad {
            Self.expectBadRequest(naming: "platform") { () throws(ProtocolError) in try Validate.platform(platform) }
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

    /// Ids, credential tokens and QR codes are ASCII made by the broker: 64 bytes, not 64 characters.
    @Test func idIsBoundedInBytes() throws {
        #expect(try Validate.id(String(repeating: "é", count: 32), field: "id").utf8.count == 64)
        let bad = [String(repeating: "é", count: 33), String(repeating: "😀", count: 64),
                   "i" + String(repeating: "\u{301}", count: 40)]
        for id in bad {
            Self.expectBadRequest(naming: "qrCode") { () throws(ProtocolError) in try Validate.id(id, field: "qrCode") }
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

    /// `[0-9 +()-]` only: 32 characters of anything else could be any number of bytes.
    @Test func phoneIsDigitsAndPunctuation() throws {
        #expect(try Validate.phone("+1 (555) 010-0100") == "+1 (555) 010-0100")
        #expect(try Validate.phone("\u{3000}+33 1 23 45 67 89\u{A0}") == "+33 1 23 45 67 89")
        let bad = [
            "555-CALL", "+1 555 0100 ext. 7", "５５５", "555\u{301}", "٥٥٥", "+1.555.0100", "555#",
            String(repeating: "5" + String(repeating: "\u{301}", count: 100), count: 32),
        ]
        for phone in bad {
            Self.expectBadRequest(naming: "phone") { () throws(ProtocolError) in try Validate.phone(phone) }
        }
    }
}
