import Foundation
import LifeSignalBroker
import LifeSignalProtocol
import Testing

@testable import lsbroker

/// PROTOCOL.md §1, §3 and §9 with bytes on a socket: each error gets its code, and the
/// connection stays open or closes as the table says.
@Suite("Protocol errors on a raw socket", .serialized)
struct ProtocolErrorTests {
    let broker: BrokerProcess

    init() throws {
        broker = try BrokerProcess(arguments: ["--max-frame-bytes", "1024"])
    }

    private func lengthPrefix(_ length: UInt32) -> [UInt8] {
        withUnsafeBytes(of: length.bigEndian) { Array($0) }
    }

    @Test func lengthAboveTheMaximumIsFrameTooLargeAndCloses() throws {
        let connection = try RawConnection(port: broker.port)
        connection.sendBytes(lengthPrefix(1025))  // only the length: the broker must not wait for a body
        #expect(connection.next()?.errorCode == .frameTooLarge)
        #expect(connection.waitForClose())
    }

    @Test func lengthAtTheMaximumIsAccepted() throws {
        let connection = try RawConnection(port: broker.port)
        var body = Array(#"{"op":"register","rid":1,"name":"Max","pad":""#.utf8)
        body += Array(repeating: UInt8(ascii: "x"), count: 1024 - body.count - 2) + Array(#""}"#.utf8)
        #expect(body.count == 1024)
        connection.sendBytes(lengthPrefix(1024) + body)
        #expect(connection.next()?.okFields != nil)
    }

    @Test(arguments: [UInt32(0), 1])
    func lengthBelowTwoIsBadFrameAndCloses(length: UInt32) throws {
        let connection = try RawConnection(port: broker.port)
        connection.sendBytes(lengthPrefix(length) + Array(repeating: UInt8(ascii: "{"), count: Int(length)))
        #expect(connection.next()?.errorCode == .badFrame)
        #expect(connection.waitForClose())
    }

    @Test(arguments: [#"{"op": "register", "#, "[1,2,3]", "42", #""text""#, "null"])
    func bodyThatIsNotAJSONObjectIsBadJSONAndStaysOpen(body: String) throws {
        let connection = try RawConnection(port: broker.port)
        connection.sendBytes(FrameEncoder.frame(body: Array(body.utf8)))
        let answer = connection.next()
        #expect(answer?.errorCode == .badJSON)
        #expect(answer?.rid == nil)
        // The frame boundary is intact, so the connection goes on.
        #expect(connection.register(name: "After") != nil)
    }

    @Test func invalidUTF8IsBadJSON() throws {
        let connection = try RawConnection(port: broker.port)
        connection.sendBytes(FrameEncoder.frame(body: Array(#"{"op":""#.utf8) + [0xFF, 0xFE] + Array(#""}"#.utf8)))
        #expect(connection.next()?.errorCode == .badJSON)
        #expect(connection.register(name: "After") != nil)
    }

    @Test func anOperationBeforeHelloIsUnauthenticatedAndCloses() throws {
        let connection = try RawConnection(port: broker.port)
        let answer = connection.request(Op.profileUpdate, ["name": "Mallory"])
        #expect(answer?.errorCode == .unauthenticated)
        #expect(answer?.rid == 1)
        #expect(connection.waitForClose())
    }

    @Test func aWrongTokenAndAnUnknownUserGetTheSameAnswer() throws {
        let setup = try RawConnection(port: broker.port)
        let alice = try #require(setup.register(name: "Alice"))

        let wrongToken = try RawConnection(port: broker.port)
        let first = wrongToken.hello(Credential(userID: alice.userID, token: "not-the-token"))
        #expect(first?.errorCode == .unauthenticated)
        #expect(wrongToken.waitForClose())

        let unknownUser = try RawConnection(port: broker.port)
        let second = unknownUser.hello(Credential(userID: "u_nobody", token: alice.token))
        #expect(second?.errorCode == .unauthenticated)
        #expect(unknownUser.waitForClose())

        if case .error(_, let a) = first, case .error(_, let b) = second { #expect(a.message == b.message) }
    }

    @Test func aVersionOtherThanOneOrTwoIsUnsupportedAndCloses() throws {
        let connection = try RawConnection(port: broker.port)
        let alice = try #require(connection.register(name: "Alice"))
        #expect(connection.hello(alice, version: 3)?.errorCode == .unsupportedVersion)
        #expect(connection.waitForClose())
    }

    /// §12: a v1.2 device says 2 and is told so; a version 1 device is answered as before.
    @Test func aV12DeviceIsToldItsVersionAndAV1DeviceIsNot() throws {
        let setup = try RawConnection(port: broker.port)
        let alice = try #require(setup.register(name: "Alice"))
        let v12 = try RawConnection(port: broker.port)
        #expect(v12.hello(alice, device: "new", version: 2)?.okFields?["version"] == .int(2))
        let v1 = try RawConnection(port: broker.port)
        let answer = try #require(v1.hello(alice, device: "old", version: 1)?.okFields)
        #expect(answer["version"] == nil && answer["session"] != nil)
    }

    @Test func anUnknownOpIsUnknownOpAndStaysOpen() throws {
        let (connection, _) = try RawConnection.authenticated(port: broker.port)
        #expect(connection.request("teleport")?.errorCode == .unknownOp)
        #expect(connection.request(Op.keepalive)?.okFields?["serverTime"]?.intValue != nil)
    }

    @Test func anUnknownOpBeforeHelloIsUnauthenticated() throws {
        let connection = try RawConnection(port: broker.port)
        #expect(connection.request("teleport")?.errorCode == .unauthenticated)
        #expect(connection.waitForClose())
    }

    @Test func mistypedAndMissingFieldsAreBadRequestAndStayOpen() throws {
        let connection = try RawConnection(port: broker.port)
        #expect(connection.request(Op.register, ["name": 42])?.errorCode == .badRequest)
        #expect(connection.request(Op.register, [:])?.errorCode == .badRequest)
        #expect(connection.request(Op.register, ["name": "   "])?.errorCode == .badRequest)
        let alice = try #require(connection.register(name: "Alice"))
        let badVersion = connection.request(Op.hello, [
            "version": "1", "user": .string(alice.userID), "token": .string(alice.token), "device": "d",
        ])
        #expect(badVersion?.errorCode == .badRequest)
        let badDevice = connection.request(Op.hello, [
            "version": 1, "user": .string(alice.userID), "token": .string(alice.token), "device": "no spaces",
        ])
        #expect(badDevice?.errorCode == .badRequest)
        #expect(connection.hello(alice)?.okFields != nil)
        #expect(connection.request(Op.profileUpdate, ["checkInIntervalSec": "daily"])?.errorCode == .badRequest)
        #expect(connection.request(Op.profileUpdate, ["checkInIntervalSec": 5])?.errorCode == .badRequest)
        #expect(connection.request(Op.profileUpdate, ["preferences": ["mutedTypes": ["nope"]]])?.errorCode
            == .badRequest)
        #expect(connection.request(Op.deviceRegister, ["token": ""])?.errorCode == .badRequest)
        #expect(connection.request(Op.keepalive)?.okFields != nil)
    }

    @Test func aRidThatIsNotAnIntegerIsBadRequestWithoutRid() throws {
        let connection = try RawConnection(port: broker.port)
        connection.sendFrame(["op": "register", "rid": "seven", "name": "Alice"])
        let answer = connection.next()
        #expect(answer?.errorCode == .badRequest)
        #expect(answer?.rid == nil)
    }

    @Test func theSameDeviceConnectingAgainReplacesTheFirst() throws {
        let (first, alice) = try RawConnection.authenticated(port: broker.port, device: "phone")
        let second = try RawConnection(port: broker.port)
        #expect(second.hello(alice, device: "phone")?.okFields != nil)
        #expect(first.next()?.errorCode == .replaced)
        #expect(first.waitForClose())
        _ = second.next()  // snapshot
        #expect(second.request(Op.keepalive)?.okFields != nil)
    }

    @Test func responsesComeInRequestOrderWhenPipelined() throws {
        let (connection, _) = try RawConnection.authenticated(port: broker.port)
        var rids: [Int64] = []
        for index in 0..<50 {
            rids.append(index % 3 == 0
                ? connection.send(Op.profileUpdate, ["name": .string("Alice \(index)")])
                : connection.send(Op.keepalive))
        }
        var answered: [Int64] = []
        while answered.count < rids.count, let message = connection.next() {
            if let rid = message.rid { answered.append(rid) }
        }
        #expect(answered == rids)
    }

    @Test func requestsPipelinedBehindHelloWaitForItsAnswer() throws {
        let setup = try RawConnection(port: broker.port)
        let alice = try #require(setup.register(name: "Alice"))
        let connection = try RawConnection(port: broker.port)
        // Sent back to back, before the broker has even loaded the user.
        let hello = connection.send(Op.hello, [
            "version": 1, "user": .string(alice.userID), "token": .string(alice.token), "device": "fast",
        ])
        let keepalive = connection.send(Op.keepalive)
        let update = connection.send(Op.profileUpdate, ["name": "Quick"])
        var order: [String] = []
        while order.count < 5, let message = connection.next() {
            switch message {
            case .ok(let rid, _): order.append(rid == hello ? "hello" : rid == keepalive ? "keepalive" : rid == update ? "update" : "?")
            case .snapshot: order.append("snapshot")
            case .event(_, let name, _): order.append(name)
            case .error(_, let error): order.append("error \(error.code.rawValue)")
            }
        }
        #expect(order == ["hello", "snapshot", "keepalive", EventName.userUpdated, "update"])
    }

    @Test func aResponseHasNoRidWhenTheRequestHadNone() throws {
        let (connection, _) = try RawConnection.authenticated(port: broker.port)
        connection.sendFrame(["op": "keepalive"])
        connection.sendFrame(["op": "keepalive", "rid": .null])
        for _ in 0..<2 {
            guard case .ok(let rid, let fields) = connection.next() else {
                Issue.record("expected an ok")
                return
            }
            #expect(rid == nil)
            #expect(fields["serverTime"]?.intValue != nil)
        }
        connection.sendFrame(["op": "teleport"])
        guard case .error(let rid, let error) = connection.next() else {
            Issue.record("expected an error")
            return
        }
        #expect(rid == nil)
        #expect(error.code == .unknownOp)
    }

    @Test func byeIsAnsweredThenTheBrokerCloses() throws {
        let (connection, _) = try RawConnection.authenticated(port: broker.port)
        #expect(connection.request(Op.bye)?.okFields != nil)
        #expect(connection.waitForClose())
    }
}

@Suite("Device limits and timeouts on a raw socket", .serialized)
struct SessionLimitTests {
    @Test func moreDevicesThanAllowedIsTooManyDevices() throws {
        let broker = try BrokerProcess(arguments: ["--max-devices-per-user", "2"])
        let (first, alice) = try RawConnection.authenticated(port: broker.port, device: "one")
        let second = try RawConnection(port: broker.port)
        #expect(second.hello(alice, device: "two")?.okFields != nil)
        let third = try RawConnection(port: broker.port)
        #expect(third.hello(alice, device: "three")?.errorCode == .tooManyDevices)
        #expect(third.waitForClose())
        #expect(first.request(Op.keepalive)?.okFields != nil)
    }

    @Test func aConnectionThatNeverSaysHelloIsClosed() throws {
        let broker = try BrokerProcess(arguments: ["--hello-timeout-ms", "300", "--metrics-port", "0"])
        let silent = try RawConnection(port: broker.port)
        #expect(silent.waitForClose(timeout: .seconds(10)))
        try expectCut("hello_timeout", logged: "closing connection without hello", by: broker)
    }

    @Test func aSilentDeviceIsClosedAfterTwoHeartbeats() throws {
        let broker = try BrokerProcess(arguments: ["--heartbeat-ms", "200", "--metrics-port", "0"])
        let (connection, credential) = try RawConnection.authenticated(port: broker.port)
        #expect(connection.waitForClose(timeout: .seconds(10)))
        let line = try expectCut("heartbeat", logged: "closing silent connection", by: broker)
        #expect(line?.contains("lifesignal.user=\(credential.userID)") == true, "\(String(describing: line))")
    }

    /// A connection the broker ends on its own is counted by reason and logged at info (issue 26).
    @discardableResult
    private func expectCut(_ reason: String, logged message: String, by broker: BrokerProcess,
                           sourceLocation: SourceLocation = #_sourceLocation) throws -> String? {
        let metrics = try PrometheusSamples(parsing: broker.operations("/metrics").body)
        #expect(metrics.total(MetricName.connectionsCut, ["reason": reason]) == 1, sourceLocation: sourceLocation)
        let line = broker.output?.lines.first { $0.hasSuffix(message) }
        #expect(line?.contains(" info ") == true, "\(broker.loggedText)", sourceLocation: sourceLocation)
        #expect(line?.contains("lifesignal.reason=\(reason)") == true, sourceLocation: sourceLocation)
        return line
    }

    @Test func keepalivesKeepADeviceConnected() throws {
        let broker = try BrokerProcess(arguments: ["--heartbeat-ms", "300"])
        let (connection, _) = try RawConnection.authenticated(port: broker.port)
        for _ in 0..<10 {
            Thread.sleep(forTimeInterval: 0.15)
            #expect(connection.request(Op.keepalive)?.okFields != nil)
        }
        #expect(!connection.isClosed)
    }
}
