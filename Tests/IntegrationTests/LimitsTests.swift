import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL.md §9 and §10's limits, each a broker setting: the request rate per connection
/// (`rate_limited`), `register`s per source address, the store's backlog (`overloaded`), and
/// the connection limit, where connections that never say hello make room for devices.
@Suite("Limits", .serialized)
struct LimitsTests {
    @Test func requestsOverTheRateAreAnsweredRateLimitedInOrderAndNotRun() throws {
        let broker = try BrokerProcess()  // the defaults: 200 requests/s, a burst of 400
        let (phone, credential) = try RawConnection.authenticated(port: broker.port)
        // register and hello took two tokens; 450 keepalives and a rename follow in one write.
        var requests = Array(repeating: (op: Op.keepalive, fields: JSONObject()), count: 450)
        requests.append((Op.profileUpdate, ["name": "Mallory"]))
        let rids = phone.sendPipelined(requests)
        let answers = phone.responses(rids.count)
        #expect(answers.map(\.rid) == rids.map { Optional($0) })
        let limited = answers.filter { $0.errorCode == .rateLimited }.count
        let ok = answers.filter { $0.okFields != nil }.count
        #expect(ok + limited == rids.count)
        // About 398 fit the burst; a few more tokens may come back while the burst is read.
        #expect(ok >= 398 && ok < 420, "ok \(ok), rate_limited \(limited)")
        #expect(answers.prefix(398).allSatisfy { $0.okFields != nil })
        #expect(answers.last?.errorCode == .rateLimited)

        // The connection stays open; once tokens are back it is served again.
        Thread.sleep(forTimeInterval: 0.1)
        #expect(phone.request(Op.keepalive)?.okFields != nil)
        #expect(!phone.isClosed)
        // The rename that was rate_limited changed nothing.
        let other = try RawConnection(port: broker.port)
        let user = other.hello(credential, device: "tablet")?.okFields?["user"]?.objectValue
        #expect(user?["name"]?.stringValue == "Alice")
    }

    @Test func badFramesCountTowardTheRateToo() throws {
        let broker = try BrokerProcess(arguments: ["--request-rate", "1", "--request-burst", "5"])
        let connection = try RawConnection(port: broker.port)
        // Five frames that are not JSON objects take the whole burst.
        for _ in 0..<5 { connection.sendBytes([0, 0, 0, 2, 0x5b, 0x5d]) }  // "[]"
        let bad = connection.responses(5)
        #expect(bad.map(\.errorCode) == Array(repeating: .badJSON, count: 5))
        #expect(connection.request(Op.keepalive)?.errorCode == .rateLimited)
        #expect(!connection.isClosed)
    }

    @Test func rateZeroTurnsTheRequestLimitOff() throws {
        let broker = try BrokerProcess(arguments: ["--request-rate", "0"])
        let (phone, _) = try RawConnection.authenticated(port: broker.port)
        let rids = phone.sendPipelined(Array(repeating: (op: Op.keepalive, fields: JSONObject()), count: 1_000))
        let answers = phone.responses(rids.count)
        #expect(answers.count == 1_000 && answers.allSatisfy { $0.okFields != nil })
    }

    @Test func benchmarksTurnTheLimitsOffThroughTheEnvironment() throws {
        let broker = try BrokerProcess(environment: [
            "LSBROKER_REQUEST_RATE": "0", "LSBROKER_REGISTER_RATE": "0", "LSBROKER_MAX_CONNECTIONS": "5",
        ])
        #expect(broker.output?.text.contains("lifesignal.connections.max=5") == true)
        // 100 registers from one address (the default burst is 60), then 500 requests at once.
        let connection = try RawConnection(port: broker.port)
        let registers = connection.sendPipelined(Array(repeating: (Op.register, ["name": "Bench"]), count: 100))
        let registered = connection.responses(registers.count).compactMap(\.okFields)
        #expect(registered.count == 100)
        let user = try #require(registered.first?["user"]?.objectValue?["id"]?.stringValue)
        let token = try #require(registered.first?["token"]?.stringValue)
        #expect(connection.hello(Credential(userID: user, token: token))?.okFields != nil)
        let keepalives = connection.sendPipelined(Array(repeating: (Op.keepalive, [:]), count: 500))
        #expect(connection.responses(keepalives.count).allSatisfy { $0.okFields != nil })
    }

    @Test func limitSettingsAreCheckedAtStart() throws {
        for arguments in [["--request-burst", "0"], ["--register-rate", "-1"], ["--max-connections", "0"],
                          ["--max-pending-writes", "0"]] {
            do {
                _ = try BrokerProcess(arguments: arguments)
                Issue.record("started with \(arguments)")
            } catch let error as BrokerFailedToStart {
                #expect(error.output.contains(arguments[0].dropFirst(2)), "\(error.output)")
            }
        }
    }

    @Test func registersOverTheAddressRateAreRefusedAndCreateNothing() throws {
        let broker = try BrokerProcess(arguments: ["--register-rate", "0.01", "--register-burst", "3"])
        let connection = try RawConnection(port: broker.port)
        for index in 0..<3 { #expect(connection.register(name: "User \(index)") != nil) }
        let refused = connection.request(Op.register, ["name": "One too many"])
        #expect(refused?.errorCode == .rateLimited)
        #expect(refused?.okFields == nil)
        // Per address: a new connection from the same one is refused too, another address is not.
        let again = try RawConnection(port: broker.port)
        #expect(again.request(Op.register, ["name": "Again"])?.errorCode == .rateLimited)
        let elsewhere = try RawConnection(port: broker.port, source: "127.0.0.2")
        let credential = try #require(elsewhere.register(name: "Elsewhere"))
        #expect(elsewhere.hello(credential)?.okFields != nil)
        // The connection that was refused stays open and is still served.
        #expect(!connection.isClosed)
        #expect(connection.request(Op.hello, ["version": 1, "user": "u_nobody", "token": "x", "device": "d"])?
            .errorCode == .unauthenticated)
    }

    @Test func overTheStoreBacklogRequestsAreShedAndChangeNothing() throws {
        let broker = try BrokerProcess(arguments: ["--max-pending-writes", "1"])
        // With a backlog limit of 1, start-up's read of the deadlines or the hello's device record
        // (written behind its answer) can shed the requests of the set-up; a client retries them.
        let phone = try RawConnection(port: broker.port)
        let registered = try #require(retriedWhileShed { phone.request(Op.register, ["name": "Alice"]) }?.okFields)
        let credential = Credential(userID: try #require(registered["user"]?.objectValue?["id"]?.stringValue),
                                    token: try #require(registered["token"]?.stringValue))
        #expect(retriedWhileShed { phone.hello(credential) }?.okFields != nil)
        // A rename that gets through commits after the device record, so from then on the backlog is empty.
        #expect(retriedWhileShed { phone.request(Op.profileUpdate, ["name": "Alice (warming up)"]) }?.okFields != nil)
        let base = try #require(phone.settle().last?.seq)
        // 30 renames and keepalives in one write: the first rename goes to the store; while it
        // commits the backlog is at the limit, so the renames behind it are shed.
        var requests: [(op: String, fields: JSONObject)] = []
        for index in 0..<30 {
            requests.append((Op.profileUpdate, ["name": .string("Alice \(index)")]))
            requests.append((Op.keepalive, [:]))
        }
        let rids = phone.sendPipelined(requests)
        var answers: [ServerMessage] = []
        var events: [Int64] = []
        while answers.count < rids.count, let message = phone.next() {
            if case .event(let seq, _, _) = message { events.append(seq) } else if message.isResponse { answers.append(message) }
        }
        #expect(answers.map(\.rid) == rids.map { Optional($0) })
        let renames = stride(from: 0, to: answers.count, by: 2).map { answers[$0] }
        let keepalives = stride(from: 1, to: answers.count, by: 2).map { answers[$0] }
        #expect(keepalives.allSatisfy { $0.okFields != nil })
        #expect(renames.allSatisfy { $0.okFields != nil || $0.errorCode == .overloaded })
        let accepted = renames.indices.filter { renames[$0].okFields != nil }
        #expect(accepted.first == 0)
        #expect(accepted.count < renames.count, "nothing was shed")
        // One event per accepted rename and none for a shed one.
        #expect(events == Array((base + 1)...(base + Int64(accepted.count))))

        // What was acknowledged is durable, and the shed renames left no trace.
        try broker.restart()
        let back = try RawConnection(port: broker.port)
        // A hello shed while start-up reads the deadlines stays open, as the retry finds.
        let greeting = try #require(retriedWhileShed { back.hello(credential) }?.okFields)
        #expect(greeting["lastSeq"]?.intValue == base + Int64(accepted.count))
        #expect(greeting["user"]?.objectValue?["name"]?.stringValue == "Alice \(accepted.last ?? -1)")
    }

    @Test func beyondMaxConnectionsNewOnesAreRefusedAndTheOthersGoOn() throws {
        let broker = try BrokerProcess(arguments: ["--max-connections", "3"])
        let devices = try (0..<3).map { try RawConnection.authenticated(port: broker.port, name: "User \($0)").0 }
        let refused = try RawConnection(port: broker.port)
        #expect(refused.next()?.errorCode == .overloaded)
        #expect(refused.waitForClose())
        for device in devices { #expect(device.request(Op.keepalive)?.okFields != nil) }
        // A place that frees up is taken again.
        _ = devices[0].request(Op.bye)
        #expect(devices[0].waitForClose())
        let next = try RawConnection(port: broker.port)
        #expect(next.request(Op.keepalive)?.errorCode == .unauthenticated)
    }

    @Test func atTheLimitTheOldestConnectionAwaitingHelloMakesRoomForADevice() throws {
        let broker = try BrokerProcess(arguments: ["--max-connections", "3"])
        // The first of three connections registers and never says hello; neither do the others.
        let oldest = try RawConnection(port: broker.port)
        let credential = try #require(oldest.register(name: "Alice"))
        let idle = try (0..<2).map { _ in try RawConnection(port: broker.port) }
        // The device takes the oldest one's place.
        let device = try RawConnection(port: broker.port)
        #expect(device.hello(credential)?.okFields != nil)
        #expect(oldest.next()?.errorCode == .overloaded)
        #expect(oldest.waitForClose())
        for connection in idle { #expect(!connection.waitForClose(timeout: .milliseconds(300))) }
        #expect(device.request(Op.keepalive)?.okFields != nil)
    }

    @Test func aFloodOfConnectionsThatNeverSayHelloDoesNotLockOutADevice() throws {
        let broker = try BrokerProcess(arguments: ["--max-connections", "200"])
        let (setup, credential) = try RawConnection.authenticated(port: broker.port)
        _ = setup.request(Op.bye)
        // 1,000 connections that never say hello, five times the limit, spread over addresses.
        var flood: [RawConnection] = []
        for index in 0..<1_000 {
            flood.append(try RawConnection(port: broker.port, source: "127.0.1.\(1 + index % 200)"))
        }
        let device = try RawConnection(port: broker.port)
        #expect(device.hello(credential, device: "phone")?.okFields != nil)
        #expect(device.request(Op.keepalive)?.okFields != nil)
        #expect(device.request(Op.checkIn)?.okFields != nil)
        // The newest of the flood are still connected; the oldest were closed to make room.
        #expect(!flood[999].waitForClose(timeout: .milliseconds(100)))
        #expect(flood[0].waitForClose())
        flood.removeAll()
    }

    @Test func runningOutOfDescriptorsNeitherCrashesNorStallsTheLoop() throws {
        // 64 descriptors, and a connection limit far above them: accepts fail with EMFILE.
        let broker = try BrokerProcess(arguments: ["--max-connections", "10000"], openFileLimit: 64)
        let (phone, _) = try RawConnection.authenticated(port: broker.port)
        var flood: [RawConnection] = []
        for _ in 0..<100 {
            guard let connection = try? RawConnection(port: broker.port) else { break }
            flood.append(connection)
        }
        #expect(phone.request(Op.keepalive)?.okFields != nil)
        flood.removeAll()
        // Once descriptors are free again, new connections are served.
        var served = false
        for _ in 0..<50 where !served {
            if let connection = try? RawConnection(port: broker.port),
               connection.request(Op.keepalive)?.errorCode == .unauthenticated {
                served = true
            } else {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        #expect(served)
        #expect(phone.request(Op.keepalive)?.okFields != nil)
        #expect(broker.stop() == 0)
    }

    /// Sends until the answer is not `overloaded`, as a client backs off and retries.
    private func retriedWhileShed(_ send: () -> ServerMessage?) -> ServerMessage? {
        var answer = send()
        while answer?.errorCode == .overloaded {
            Thread.sleep(forTimeInterval: 0.05)
            answer = send()
        }
        return answer
    }
}
