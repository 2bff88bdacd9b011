import Foundation
import LifeSignalBroker
import LifeSignalProtocol
import Testing

@testable import lsbroker

/// The FCM queue on the real broker against the fake FCM: one pair's flood of pings, which FCM
/// is slow to take, costs neither another user's alert nor FCM's retry rules.
@Suite("Fair pushes", .serialized)
struct FairPushTests {
    let fcm: FakeFCM
    let account: ServiceAccountFile
    let broker: BrokerProcess

    init() throws {
        (fcm, account, broker) = try BrokerWithFakeFCM().parts
    }

    /// `person` has a device named `name` that is offline with the push token `name`.
    private func offlineDevice(_ name: String, of person: Person) throws {
        let device = try person.addDevice(name)
        person.register(token: name, on: device)
        person.takeOffline(device, named: name)
    }

    private func counted(_ result: String) throws -> Int {
        Int(try PrometheusSamples(parsing: broker.operations("/metrics").body).total(MetricName.pushes, ["result": result]))
    }

    @Test func aFloodOfPingsFromOnePairDoesNotCostAnotherUsersAlert() throws {
        // Alice has eight devices away, whose pushes FCM keeps refusing for now (503, Retry-After 1 s).
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        let floodTokens = (0..<8).map { "flood-\($0)" }
        for token in floodTokens {
            try offlineDevice(token, of: alice)
            fcm.answerAlways(token, .unavailable(retryAfter: 1))
        }
        let carol = try Person("Carol", port: broker.port)
        let dave = try Person("Dave", port: broker.port)
        carol.add(dave, responder: true, dependent: false)
        try offlineDevice("dave-away", of: dave)

        // Bob pings Alice 100 times: 800 pushes, as many as FCM has send slots busy with them.
        for _ in 0..<100 {
            _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
            _ = bob.ok(Op.pingClear, ["contactId": .string(alice.id)])
        }
        #expect(fcm.wait { Set($0.sends.compactMap(\.token)).isSuperset(of: floodTokens) })

        // Carol's alert reaches Dave's phone through FCM all the same, with her words in sight.
        _ = carol.ok(Op.alertTrigger, ["message": "I fell in the kitchen"])
        #expect(fcm.wait(timeout: .seconds(60)) { $0.sends.contains { $0.token == "dave-away" && $0.status == 200 } })
        let alert = try #require(fcm.sends.first { $0.token == "dave-away" })
        let body = alert.message["notification"]?.objectValue?["body"]?.stringValue ?? ""
        #expect(body == "Carol triggered an emergency alert.\nI fell in the kitchen")
        #expect(alert.message["android"]?.objectValue?["priority"]?.stringValue == "HIGH")

        // The flood was merged per device and budgeted per sender rather than queued whole.
        #expect(try eventually { try counted("coalesced") + counted("throttled") > 0 })
        #expect(fcm.sends.filter { floodTokens.contains($0.token ?? "") }.count < 800)
        #expect(fcm.problems.isEmpty, "\(fcm.problems)")
    }

    /// Slow by nature: FCM asks for a minute after a 429 without `Retry-After`, and this one asks for more.
    @Test func aTooManyRequestsWaitsAsFCMAsks() throws {
        let alice = try Person("Alice", port: broker.port)
        let bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        try offlineDevice("quota", of: alice)
        try offlineDevice("patient", of: alice)
        fcm.script("quota", [.tooManyRequests(retryAfter: nil)])
        fcm.script("patient", [.tooManyRequests(retryAfter: 61)])
        _ = bob.ok(Op.pingSend, ["contactId": .string(alice.id)])
        // The fake records a try that comes too early as a problem.
        #expect(fcm.wait(timeout: .seconds(200)) { state in
            ["quota", "patient"].allSatisfy { token in state.sends.contains { $0.token == token && $0.status == 200 } }
        })
        #expect(fcm.sends.filter { $0.token == "quota" }.map(\.status) == [429, 200])
        #expect(fcm.sends.filter { $0.token == "patient" }.map(\.status) == [429, 200])
        #expect(fcm.problems.isEmpty, "\(fcm.problems)")
    }
}
