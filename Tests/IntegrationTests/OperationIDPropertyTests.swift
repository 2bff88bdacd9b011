import Foundation
import LifeSignalFuzzing
import LifeSignalProtocol
import Testing

/// PROTOCOL §12's promise as a property: a seeded run of changing requests, each sent once to one
/// broker and one to three times (from either of the sender's devices, with its `opId`) to
/// another, leaves both with the same state, and every resend gets the first answer.
@Suite("opId: resending is sending once", .serialized)
struct OperationIDPropertyTests {
    /// Alice (two devices), Bob and Carol on one broker; Bob and Carol watch over Alice.
    private struct World {
        let people: [String: Person]

        init(port: Int) throws {
            let alice = try Person("Alice", port: port, devices: 2)
            let bob = try Person("Bob", port: port)
            let carol = try Person("Carol", port: port)
            bob.add(alice, responder: false, dependent: true)
            carol.add(alice, responder: false, dependent: true)
            people = ["Alice": alice, "Bob": bob, "Carol": carol]
        }

        /// What each person sees, without ids and times (which differ between the two runs).
        func state() -> [String: JSONValue] {
            people.mapValues { person in
                let contacts = person.ok(Op.contactsList)["contacts"]?.arrayValue ?? []
                let notifications = person.ok(Op.notificationsList, ["limit": 100])["notifications"]?.arrayValue ?? []
                return .array([.array(contacts.map(Self.normalized).sorted { "\($0)" < "\($1)" }),
                               .array(notifications.map(Self.normalized))])
            }
        }

        static func normalized(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object):
                let kept = object.keys.filter { key in
                    !(key.hasSuffix("Id") || key.hasSuffix("ID") || key == "id" || key.hasSuffix("At") || key == "timestamp"
                      || key == "checkInDeadline")
                }
                return .object(JSONObject(kept.sorted().map { ($0, normalized(object[$0]!)) }))
            case .array(let values): return .array(values.map(normalized))
            default: return value
            }
        }
    }

    /// One changing request of the run: who sends it, and its op and fields (contacts by name).
    private static func request(_ random: inout SplitMix64) -> (sender: String, op: String, fields: (World) -> JSONObject) {
        let contact = { (name: String) in { (world: World) -> JSONObject in ["contactId": .string(world.people[name]!.id)] } }
        let watcher = Bool.random(using: &random) ? "Bob" : "Carol"
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return (watcher, Op.pingSend, contact("Alice"))
        case 1: return ("Alice", Op.pingRespond, contact(watcher))
        case 2: return (watcher, Op.pingClear, contact("Alice"))
        case 3: return ("Alice", Op.checkIn, { _ in [:] })
        case 4: return ("Alice", Op.alertTrigger, { _ in ["message": "help"] })
        case 5: return ("Alice", Op.alertCancel, { _ in [:] })
        case 6: return (watcher, Op.notificationsReadAll, { _ in [:] })
        default:
            let responder = Bool.random(using: &random)
            return ("Alice", Op.contactsSetRoles, { world in
                ["contactId": .string(world.people[watcher]!.id), "isResponder": .bool(responder), "isDependent": false]
            })
        }
    }

    private static func with(_ opID: String, _ fields: JSONObject) -> JSONObject {
        var fields = fields
        fields["opId"] = .string(opID)
        return fields
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func resendingAnyRequestLeavesTheStateOfSendingItOnce(seed: UInt64) throws {
        let (once, resent) = (try BrokerProcess(), try BrokerProcess())
        let (a, b) = (try World(port: once.port), try World(port: resent.port))
        var random = SplitMix64(seed: seed)
        for index in 0..<40 {
            let (sender, op, fields) = Self.request(&random)
            let opID = "op-\(seed)-\(index)"
            let first = a.people[sender]!.request(op, Self.with(opID, fields(a)))
            var answers: [ServerMessage?] = []
            for _ in 0..<Int.random(in: 1...3, using: &random) {
                let person = b.people[sender]!
                let device = person.devices.randomElement(using: &random)!
                answers.append(device.request(op, Self.with(opID, fields(b))))
            }
            #expect(answers.map { $0?.errorCode } == Array(repeating: first?.errorCode, count: answers.count),
                    "seed \(seed), \(op) #\(index): \(answers) against \(String(describing: first))")
            #expect(Set(answers.map { "\(String(describing: $0?.okFields))" }).count == 1,
                    "seed \(seed), \(op) #\(index): resends answered differently: \(answers)")
        }
        for person in a.people.values { _ = person.settle() }
        for person in b.people.values { _ = person.settle() }
        #expect(a.state() == b.state(), "seed \(seed)")
    }
}
