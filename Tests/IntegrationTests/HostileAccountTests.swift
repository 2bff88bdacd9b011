import Foundation
import LifeSignalProtocol
import Testing

/// One registered user at full request rate, doing everything that reaches a contact (largest
/// names, role toggles, pings), against a victim who only checks in and answers: the victim is
/// never cut, every request of theirs is answered, and a new device of theirs catches up and
/// stays. The victim's round trips and the broker's memory are measured and printed, never
/// asserted (no timing assertions): docs/BENCHMARKS.md records them.
@Suite("Hostile account", .serialized)
struct HostileAccountTests {
    @Test func aContactAtFullRateDoesNotCutSlowOrLockOutTheVictim() throws {
        let broker = try BrokerProcess()
        let victim = try Person("Victim", port: broker.port)
        let mallory = try Person("Mallory", port: broker.port)
        mallory.add(victim, responder: true, dependent: true)
        _ = victim.settle()
        let residentBefore = try #require(broker.residentKiB)

        // 100 characters of 4 bytes: the largest names there are (§10), two so that each rename changes.
        let longNames = [String(repeating: "😀", count: 100), String(repeating: "😃", count: 100)]
        var victimRoundTrips: [Duration] = []
        let clock = ContinuousClock()
        for round in 0..<30 {
            // Mallory pipelines a full burst's worth, the victim asks meanwhile.
            var requests: [(op: String, fields: JSONObject)] = []
            for index in 0..<40 {
                switch index % 4 {
                case 0: requests.append((Op.profileUpdate, ["name": .string(longNames[(index / 4) % 2])]))
                case 1: requests.append((Op.contactsSetRoles, ["contactId": .string(victim.id),
                                                                "isResponder": .bool(index % 8 == 1), "isDependent": true]))
                case 2: requests.append((Op.pingSend, ["contactId": .string(victim.id)]))
                default: requests.append((Op.pingClear, ["contactId": .string(victim.id)]))
                }
            }
            let rids = mallory.phone.sendPipelined(requests)
            let started = clock.now
            #expect(victim.ok(Op.checkIn)["user"] != nil, "the victim's check-in in round \(round)")
            victimRoundTrips.append(clock.now - started)
            _ = mallory.phone.responses(rids.count)
            #expect(!victim.settle().isEmpty)
            #expect(!victim.phone.isClosed, "the victim was cut in round \(round)")
        }
        let residentDuring = try #require(broker.residentKiB)

        // A new device of the victim's, resuming from the very start, is not cut by its catch-up.
        let tablet = try RawConnection(port: broker.port)
        #expect(tablet.hello(victim.credential, device: "tablet", resume: 0)?.okFields != nil)
        #expect(tablet.request(Op.keepalive)?.okFields != nil)
        #expect(!tablet.isClosed)

        let sorted = victimRoundTrips.sorted()
        let p50 = sorted[sorted.count / 2]
        let p99 = sorted[min(sorted.count - 1, sorted.count * 99 / 100)]
        print("hostile account: victim check-in round trip p50 \(p50), p99 \(p99), max \(sorted.last!);"
            + " broker RSS \(residentBefore) KiB before, \(residentDuring) KiB during")
    }
}

/// The overload guard counts rows, not submissions: one change that reaches many contacts
/// weighs what it costs the single writer (§9 `overloaded`).
@Suite("Store backlog in rows", .serialized)
struct BacklogRowTests {
    @Test func aChangeThatReachesManyContactsCountsEachRowTowardTheBacklog() throws {
        // Each rename of a user with 12 contacts writes 14 rows (the user, a user.updated and a
        // contact.updated for each contact): with 10 rows allowed, the second of two renames in
        // one write finds the first still committing and is shed. Counted in submissions, the
        // backlog would be 1.
        let broker = try BrokerProcess(arguments: ["--max-pending-writes", "10"])
        let hub = try Person("Hub", port: broker.port)
        for index in 0..<12 {
            let contact = try Person("Contact \(index)", port: broker.port, devices: 0)
            hub.add(contact, responder: false, dependent: false)
        }
        _ = hub.settle()
        let rids = hub.phone.sendPipelined([(Op.profileUpdate, ["name": "Hub 1"]), (Op.profileUpdate, ["name": "Hub 2"])])
        let answers = hub.phone.responses(rids.count)
        #expect(answers.first?.okFields != nil)
        #expect(answers.last?.errorCode == .overloaded)
        #expect(hub.ok(Op.keepalive)["serverTime"] != nil)
    }
}
