import Foundation
import LifeSignalProtocol
import Testing

/// §2: responses come in request order, also when a request waits for another user to load and
/// the frames behind it are malformed or over the rate: those are answered in their place, not
/// ahead of it.
@Suite("Held requests", .serialized)
struct HeldRequestOrderTests {
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess(arguments: ["--request-rate", "1", "--request-burst", "6"]) }

    @Test func aMalformedFrameBehindAHeldRequestIsAnsweredAfterIt() throws {
        let alice = try Person("Alice", port: broker.port)
        // Bob has no device online: adding him loads him first, and Alice's frames wait.
        let bob = try Person("Bob", port: broker.port, devices: 0)
        let phone = alice.phone
        // One write, so that the broker reads all three while the add is still being prepared.
        let add: JSONObject = ["op": "contacts.add", "rid": 1, "qrCode": .string(bob.qrCode), "isResponder": true,
                               "isDependent": false]
        phone.sendBytes(FrameEncoder.frame(.object(add)) + [0, 0, 0, 2, 0x5b, 0x5d]  // "[]": bad_json, no rid
            + FrameEncoder.frame(["op": "keepalive", "rid": 2]))
        let answers = phone.responses(3)
        #expect(answers.count == 3)
        #expect(answers.first?.rid == 1 && answers.first?.okFields != nil)
        #expect(answers.dropFirst().first?.errorCode == .badJSON)
        #expect(answers.last?.rid == 2 && answers.last?.okFields != nil)
    }

    @Test func aRequestOverTheRateBehindAHeldRequestIsAnsweredAfterIt() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port, devices: 0)
        let phone = alice.phone
        // Register and hello took two of the six; the add and three keepalives take the rest.
        var requests: [(op: String, fields: JSONObject)] = [
            (Op.contactsAdd, ["qrCode": .string(bob.qrCode), "isResponder": true, "isDependent": false]),
        ]
        requests += Array(repeating: (op: Op.keepalive, fields: JSONObject()), count: 5)
        let rids = phone.sendPipelined(requests)
        let answers = phone.responses(rids.count)
        #expect(answers.map(\.rid) == rids.map { Optional($0) })
        #expect(answers.first?.okFields != nil)
        #expect(answers.last?.errorCode == .rateLimited)
    }
}
