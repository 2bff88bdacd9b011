import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §10 (v1.1) on the real broker: every string a user chooses is bounded in bytes as well
/// as in characters. The attack it stops: a name of "a" and 10,000 combining accents is one
/// character of 20 KB; the broker took it, and copied it into the events of every contact.
@Suite("Byte bounds on the wire")
struct ByteBoundsTests {
    /// One character, 20,001 bytes.
    static let heavyCharacter = "a" + String(repeating: "\u{301}", count: 10_000)
    /// 64 accents in a row, as UTF-8: in the store only if a heavy string got in.
    static let accentRun = Array(String(repeating: "\u{301}", count: 64).utf8)

    @Test func aHeavyNameIsRefusedAtRegisterAndNothingIsStored() throws {
        let broker = try BrokerProcess()
        let connection = try RawConnection(port: broker.port)
        #expect(connection.request(Op.register, ["name": .string(Self.heavyCharacter)])?.errorCode == .badRequest)
        // A register that passes commits, so a user made by the first would be in the store by now.
        #expect(connection.register(name: "Alice") != nil)
        #expect(try !Self.store(of: broker, holds: Self.accentRun))
    }

    @Test func aHeavyNameOrMessageChangesNothing() throws {
        let cast = try AliceAndBob()
        let people = [cast.alice, cast.bob]
        let before = try people.map { try $0.observedSnapshot() }
        let refused: [(op: String, fields: JSONObject)] = [
            (Op.profileUpdate, ["name": .string(Self.heavyCharacter)]),
            // With a valid field beside it: the whole request fails.
            (Op.profileUpdate, ["name": .string(Self.heavyCharacter), "phone": "+1 555 0100"]),
            (Op.profileUpdate, ["phone": .string("5" + String(repeating: "\u{301}", count: 1_000))]),
            (Op.alertTrigger, ["message": .string(Self.heavyCharacter)]),
            // 500 characters, 2,500 bytes.
            (Op.alertTrigger, ["message": .string(String(repeating: "e\u{301}\u{301}", count: 500))]),
        ]
        for (op, fields) in refused {
            #expect(cast.alice.request(op, fields)?.errorCode == .badRequest, "\(op) \(fields.map(\.key))")
        }
        for person in people {
            let eventsSent = person.settle().map(\.count)
            #expect(eventsSent.allSatisfy { $0 == 0 }, "\(person.name)'s devices were sent \(eventsSent) events")
        }
        #expect(try people.map { try $0.observedSnapshot() } == before)
        #expect(try !Self.store(of: cast.broker, holds: Self.accentRun))
    }

    /// Just within both bounds passes, and reaches the contact as sent.
    @Test func justWithinTheByteBoundsIsAccepted() throws {
        let cast = try AliceAndBob()
        let name = "a" + String(repeating: "\u{301}", count: 199)  // one character, 399 bytes
        let message = String(repeating: "😀", count: 500)  // 500 characters, 2,000 bytes
        #expect(cast.alice.request(Op.profileUpdate, ["name": .string(name)])?.okFields != nil)
        #expect(cast.alice.request(Op.alertTrigger, ["message": .string(message)])?.okFields != nil)
        let bobsEvents = cast.bob.settle()[0]
        #expect(bobsEvents.named(EventName.contactUpdated).first?.contact?["name"]?.stringValue == name)
        #expect(bobsEvents.notifications.last?["alertData"]?.objectValue?["message"]?.stringValue == message)
    }

    /// Whether any file of the broker's data directory (the database, its WAL) holds `bytes`.
    static func store(of broker: BrokerProcess, holds bytes: [UInt8]) throws -> Bool {
        let directory = broker.dataDirectory.url
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).contains { name in
            try Data(contentsOf: directory.appendingPathComponent(name)).range(of: Data(bytes)) != nil
        }
    }
}
