import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL §12, `opId`: a changing request sent again under its `opId` acts once and is answered
/// as it was the first time, from any device, after a restart; reads run afresh.
@Suite("opId: a resent request acts once", .serialized)
struct OperationIDTests: AliceAndBobSuite {
    /// Bob watches over Alice.
    let cast: AliceAndBob

    init() throws {
        cast = try AliceAndBob()
    }

    private func pings(_ person: Person) -> Int {
        person.settle()[0].filter { $0.notification?["type"]?.stringValue == "ping" }.count
    }

    @Test func aResentPingPingsOnceAndIsAnsweredAlike() throws {
        let fields: JSONObject = ["contactId": .string(alice.id), "opId": "ping-1"]
        let first = bob.ok(Op.pingSend, fields)
        #expect(first["pingId"]?.stringValue != nil, "\(first)")
        let again = try #require(bob.request(Op.pingSend, fields))
        #expect(again.okFields == first, "the same fields, under the new rid")
        #expect(pings(alice) == 1)

        // Another opId is another ping.
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id), "opId": "ping-2"])
        #expect(pings(alice) == 1)
    }

    /// Both of Alice's devices send the same `opId` at once (on a cluster, possibly into one batch,
    /// or to two brokers): one alert, and both are answered with it.
    @Test func twoDevicesSendingOneOpIDAtOnceActOnce() throws {
        let fields: JSONObject = ["message": "fell", "opId": "alert-at-once"]
        let rids = alice.devices.map { $0.send(Op.alertTrigger, fields) }
        let answers = zip(alice.devices, rids).map { device, rid in device.response(to: rid) }
        #expect(answers.allSatisfy { $0?.okFields != nil }, "\(answers)")
        #expect(answers[0]?.okFields == answers[1]?.okFields, "\(answers)")
        let alerts = bob.settle()[0].filter { $0.notification?["type"]?.stringValue == "alert" }
        #expect(alerts.count == 1, "\(alerts)")
    }

    @Test func aRefusalIsKeptToo() throws {
        let carol = try Person("Carol", port: broker.port)
        let remove: JSONObject = ["contactId": .string(carol.id), "opId": "remove-carol"]
        #expect(alice.request(Op.contactsRemove, remove)?.errorCode == .notFound)
        carol.add(alice, responder: true, dependent: false)
        // Carol is a contact now, but the kept outcome of that opId is the refusal.
        #expect(alice.request(Op.contactsRemove, remove)?.errorCode == .notFound)
        #expect(alice.ok(Op.contactsList)["contacts"]?.arrayValue?.count == 2)
    }

    @Test func anotherDeviceAndARestartGetTheKeptAnswer() throws {
        let fields: JSONObject = ["message": "fell", "opId": "alert-1"]
        let first = alice.ok(Op.alertTrigger, fields)
        try broker.restart()
        let tablet = try alice.addDevice("tablet")
        let again = try #require(tablet.request(Op.alertTrigger, fields))
        #expect(again.okFields == first)
        let bobsTablet = try bob.addDevice("bob-tablet")
        let history = bobsTablet.request(Op.notificationsList)?.okFields?["notifications"]?.arrayValue ?? []
        #expect(history.filter { $0.objectValue?["type"]?.stringValue == "alert" }.count == 1, "\(history)")
    }

    @Test func theSameOpIDForAnotherOpIsABadRequest() throws {
        _ = alice.ok(Op.checkIn, ["opId": "shared"])
        let other = alice.request(Op.alertTrigger, ["opId": "shared"])
        guard case .error(_, let error)? = other else {
            Issue.record("\(String(describing: other))")
            return
        }
        #expect(error.code == .badRequest)
        #expect(error.message.contains(Op.checkIn), "\(error)")
    }

    @Test(arguments: ["", String(repeating: "a", count: 65), "has space", "slash/no", "émoji"])
    func aMalformedOpIDIsABadRequest(_ opID: String) throws {
        #expect(alice.request(Op.checkIn, ["opId": .string(opID)])?.errorCode == .badRequest)
        #expect(alice.request(Op.checkIn, ["opId": 5])?.errorCode == .badRequest)
    }

    @Test func readsRunAfreshWhateverTheirOpID() throws {
        #expect(alice.ok(Op.contactsList, ["opId": "read-1"])["contacts"]?.arrayValue?.count == 1)
        let carol = try Person("Carol", port: broker.port)
        carol.add(alice, responder: true, dependent: false)
        #expect(alice.ok(Op.contactsList, ["opId": "read-1"])["contacts"]?.arrayValue?.count == 2)
    }
}
