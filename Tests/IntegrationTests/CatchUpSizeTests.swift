import Foundation
import LifeSignalProtocol
import Testing

/// §3 (v1.1): a catch-up never cuts the device it is for. Events to replay that would take more
/// than half of `maxOutboundBytes` are sent as a snapshot instead, however many a contact made.
@Suite("Catch-up size", .serialized)
struct CatchUpSizeTests {
    /// 128 KiB may be unsent: a replay of more than 64 KiB is a snapshot.
    let broker: BrokerProcess

    init() throws { broker = try BrokerProcess(arguments: ["--max-outbound-bytes", "131072"]) }

    /// Mallory toggles Victor's role until Victor has missed `rounds` × 2 events on each side.
    private func toggle(_ mallory: Person, _ victor: Person, rounds: Int) {
        for round in 0..<rounds {
            _ = mallory.ok(Op.contactsSetRoles, ["contactId": .string(victor.id), "isResponder": .bool(round % 2 == 0),
                                                 "isDependent": false])
        }
    }

    @Test func aReplayOverHalfTheOutboundLimitIsASnapshot() throws {
        let victor = try Person("Victor", port: broker.port)
        let mallory = try Person("Mallory", port: broker.port)
        mallory.add(victor, responder: false, dependent: false)
        let resume = try #require(victor.phone.settle().last?.seq)

        // A few events replay as events.
        toggle(mallory, victor, rounds: 4)
        let small = try RawConnection(port: broker.port)
        #expect(small.hello(victor.credential, device: "tablet", resume: resume)?.okFields != nil)
        guard case .event(let first, _, _)? = small.next() else {
            Issue.record("a short catch-up is not replayed")
            return
        }
        #expect(first == resume + 1)

        // About 600 bytes an event: 240 of them are more than 64 KiB.
        toggle(mallory, victor, rounds: 120)
        let large = try RawConnection(port: broker.port)
        let hello = try #require(large.hello(victor.credential, device: "tablet", resume: resume)?.okFields)
        guard case .snapshot(let snapshot)? = large.next() else {
            Issue.record("a catch-up of more than half the outbound limit was replayed")
            return
        }
        #expect(snapshot.seq == hello["lastSeq"]?.intValue)
        #expect(snapshot.contacts.first?.id == mallory.id)
        #expect(large.request(Op.keepalive)?.okFields != nil)
    }
}
