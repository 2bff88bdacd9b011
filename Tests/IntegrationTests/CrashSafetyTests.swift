import Foundation
import LifeSignalFuzzing
import LifeSignalProtocol
import Testing

/// Issue 3's crash test: the broker is killed with SIGKILL again and again while users add,
/// remove and re-role contacts. After every restart each relationship is reciprocal, each
/// pair is in a state its acknowledged requests allow, and every acknowledged change is
/// there with its notifications on both sides.
@Suite("Crash safety of relationships", .serialized)
struct CrashSafetyTests {
    /// The relationship of a pair as its actor sees it: nil when there is none.
    struct Roles: Equatable {
        var isResponder: Bool
        var isDependent: Bool
    }

    enum Operation {
        case add(Roles), remove, setRoles(Roles)

        /// What the broker must do to the pair; nil when the request must fail.
        func apply(to state: Roles??) -> Roles?? {
            switch (self, state) {
            case (.add(let roles), .some(nil)): .some(roles)
            case (.remove, .some(.some)): .some(nil)
            case (.setRoles(let roles), .some(.some)): .some(roles)
            default: nil
            }
        }
    }

    @Test func relationshipsStayWholeAcrossRepeatedKills() throws {
        var random = SeededRandom(seed: UInt64(Date().timeIntervalSince1970))
        let seed = random.seed
        let broker = try BrokerProcess()
        let people = try (0..<5).map { try Person("User\($0)", port: broker.port) }
        // A pair (i, j), i < j, is only ever changed by people[i]: acknowledgements are then a
        // prefix of the requests on one connection.
        var pairState: [[Roles?]] = Array(repeating: Array(repeating: nil, count: people.count), count: people.count)
        var expectedTexts: [String: [String: Int]] = [:]  // user id → message → acknowledged count

        for round in 0..<8 {
            var connections: [RawConnection] = []
            var issued: [[(rid: Int64, pair: Int, operation: Operation, text: (String, String)?)]] = []
            for (index, person) in people.enumerated() {
                let connection = try RawConnection(port: broker.port)
                guard connection.hello(person.credential, device: "crash-\(round)")?.okFields != nil else {
                    Issue.record("hello failed in round \(round), seed \(seed)")
                    return
                }
                connections.append(connection)
                var requests: [(Int64, Int, Operation, (String, String)?)] = []
                for _ in 0..<40 {
                    let other = index + 1 + Int(random.next() % UInt64(max(1, people.count - index - 1)))
                    guard other < people.count else { break }
                    let roles = Roles(isResponder: random.next() % 2 == 0, isDependent: random.next() % 2 == 0)
                    let operation: Operation = switch random.next() % 3 {
                    case 0: .add(roles)
                    case 1: .remove
                    default: .setRoles(roles)
                    }
                    let rid = send(operation, from: person, to: people[other], on: connection)
                    requests.append((rid, other, operation, nil))
                }
                issued.append(requests.map { (rid: $0.0, pair: $0.1, operation: $0.2, text: $0.3) })
            }
            Thread.sleep(forTimeInterval: Double(random.next() % 30) / 1000)
            broker.stop(signal: SIGKILL)

            // Which requests were acknowledged, with which answer.
            var allowed: [[[Roles?]]] = Array(
                repeating: Array(repeating: [], count: people.count), count: people.count)
            for (index, connection) in connections.enumerated() {
                var answers: [Int64: ServerMessage] = [:]
                while let message = connection.next(timeout: .milliseconds(300)) {
                    if let rid = message.rid, message.isResponse { answers[rid] = message }
                }
                // Replay each pair's requests in order: the ones answered must match the model; after the
                // last answer, any prefix of the rest may have been committed.
                var state = pairState[index].map { Optional($0) }
                var stillOpen = Array(repeating: false, count: people.count)
                for pair in (index + 1)..<people.count { allowed[index][pair] = [] }
                for request in issued[index] {
                    let expected = request.operation.apply(to: state[request.pair])
                    if let answer = answers[request.rid] {
                        #expect(stillOpen[request.pair] == false, "an answer after an unanswered request, seed \(seed)")
                        #expect((answer.okFields != nil) == (expected != nil),
                                "round \(round) person \(index) pair \(request.pair): answer \(answer) to \(request.operation) from \(String(describing: state[request.pair])), seed \(seed)")
                        if let expected {
                            state[request.pair] = expected
                            count(request.operation, from: people[index], to: people[request.pair], into: &expectedTexts)
                        }
                    } else {
                        if !stillOpen[request.pair] { allowed[index][request.pair].append(state[request.pair] ?? nil) }
                        stillOpen[request.pair] = true
                        if let expected { state[request.pair] = expected }
                        allowed[index][request.pair].append(state[request.pair] ?? nil)
                    }
                }
                for pair in (index + 1)..<people.count where !stillOpen[pair] {
                    allowed[index][pair] = [state[pair] ?? nil]
                }
            }

            try broker.start()

            // Every relationship is reciprocal and in an allowed state.
            var views: [[String: JSONObject]] = []
            for person in people {
                let connection = try RawConnection(port: broker.port)
                _ = connection.hello(person.credential, device: "check")
                let list = connection.request(Op.contactsList)?.okFields?["contacts"]?.arrayValue ?? []
                views.append(Dictionary(uniqueKeysWithValues: list.compactMap(\.objectValue).compactMap { contact in
                    contact.string(at: "id").map { ($0, contact) }
                }))
            }
            for i in people.indices {
                for j in people.indices where j > i {
                    let mine = views[i][people[j].id]
                    let theirs = views[j][people[i].id]
                    #expect((mine == nil) == (theirs == nil), "half a relationship \(i)-\(j), round \(round), seed \(seed)")
                    if let mine, let theirs {
                        #expect(mine.bool(at: "isResponder") == theirs.bool(at: "isDependent"))
                        #expect(mine.bool(at: "isDependent") == theirs.bool(at: "isResponder"))
                    }
                    let actual = mine.map { Roles(isResponder: $0.bool(at: "isResponder") ?? false,
                                                  isDependent: $0.bool(at: "isDependent") ?? false) }
                    #expect(allowed[i][j].contains(actual),
                            "pair \(i)-\(j) is \(String(describing: actual)), allowed \(allowed[i][j]), round \(round), seed \(seed)")
                    pairState[i][j] = actual
                }
            }
            // Every acknowledged change left its notification on both sides.
            for person in people {
                let texts = notificationTexts(of: person, port: broker.port)
                for (text, acknowledged) in expectedTexts[person.id] ?? [:] {
                    #expect((texts[text] ?? 0) >= acknowledged,
                            "\(person.name) has \(texts[text] ?? 0) × '\(text)', \(acknowledged) acknowledged, seed \(seed)")
                }
            }
        }
        // The event log of every user is gapless from 1: a resume from 0 replays it all.
        for person in people {
            let connection = try RawConnection(port: broker.port)
            let lastSeq = connection.hello(person.credential, device: "log", resume: 0)?.okFields?["lastSeq"]?.intValue
            var seqs: [Int64] = []
            while let message = connection.next(timeout: .milliseconds(500)) {
                if case .event(let seq, _, _) = message { seqs.append(seq) }
                if case .snapshot = message { Issue.record("snapshot instead of the log, seed \(seed)") }
            }
            #expect(seqs == Array(1...(lastSeq ?? 0)), "seed \(seed)")
        }
    }

    private func send(_ operation: Operation, from actor: Person, to other: Person, on connection: RawConnection)
        -> Int64
    {
        switch operation {
        case .add(let roles):
            connection.send(Op.contactsAdd, ["qrCode": .string(other.qrCode), "isResponder": .bool(roles.isResponder),
                                             "isDependent": .bool(roles.isDependent)])
        case .remove:
            connection.send(Op.contactsRemove, ["contactId": .string(other.id)])
        case .setRoles(let roles):
            connection.send(Op.contactsSetRoles, ["contactId": .string(other.id), "isResponder": .bool(roles.isResponder),
                                                  "isDependent": .bool(roles.isDependent)])
        }
    }

    /// The notification texts an acknowledged operation must have left for each side.
    private func count(_ operation: Operation, from actor: Person, to other: Person,
                       into texts: inout [String: [String: Int]]) {
        let (mine, theirs): (String?, String?) = switch operation {
        case .add: ("You added \(other.name).", "\(actor.name) added you.")
        case .remove: ("You removed \(other.name).", "\(actor.name) removed you.")
        case .setRoles: (nil, nil)  // "unchanged roles: no effect" makes its count depend on order; covered elsewhere
        }
        if let mine { texts[actor.id, default: [:]][mine, default: 0] += 1 }
        if let theirs { texts[other.id, default: [:]][theirs, default: 0] += 1 }
    }

    private func notificationTexts(of person: Person, port: Int) -> [String: Int] {
        var texts: [String: Int] = [:]
        for item in (try? person.notificationHistory()) ?? [] {
            if let text = item.string(at: "message") { texts[text, default: 0] += 1 }
        }
        return texts
    }
}

/// A seeded generator, so a failing run can be told apart and repeated.
typealias SeededRandom = SplitMix64
