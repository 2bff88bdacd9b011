import Foundation
import LifeSignalProtocol
import Testing

/// An event as a device received it.
struct ReceivedEvent {
    let seq: Int64
    let name: String
    let data: JSONObject

    var notification: JSONObject? { data["notification"]?.objectValue }
    var contact: JSONObject? { data["contact"]?.objectValue }
}

/// A registered user with one or more raw devices, for testing the rules on the wire.
final class Person {
    let name: String
    let id: String
    let credential: Credential
    private(set) var qrCode: String
    private(set) var devices: [RawConnection] = []
    let port: Int

    var phone: RawConnection { devices[0] }

    init(_ name: String, port: Int, devices deviceCount: Int = 1) throws {
        self.name = name
        self.port = port
        let setup = try RawConnection(port: port)
        guard let fields = setup.request(Op.register, ["name": .string(name)])?.okFields,
              let user = fields["user"]?.objectValue, let id = user["id"]?.stringValue,
              let qr = user["qrCode"]?.stringValue, let token = fields["token"]?.stringValue
        else { throw RawConnection.SetupFailed() }
        self.id = id
        qrCode = qr
        credential = Credential(userID: id, token: token)
        for index in 0..<deviceCount { try addDevice("device-\(index)") }
    }

    /// A device saying hello to the broker on `port` (by default the one the person registered on).
    @discardableResult
    func addDevice(_ deviceID: String, port: Int? = nil) throws -> RawConnection {
        let device = try RawConnection(port: port ?? self.port)
        guard device.hello(credential, device: deviceID)?.okFields != nil else { throw RawConnection.SetupFailed() }
        _ = device.next()  // its snapshot
        devices.append(device)
        return device
    }

    /// Sends from the first device and returns the answer; its events stay queued.
    func request(_ op: String, _ fields: JSONObject = [:]) -> ServerMessage? { phone.request(op, fields) }

    func ok(_ op: String, _ fields: JSONObject = [:], sourceLocation: SourceLocation = #_sourceLocation) -> JSONObject {
        let answer = phone.request(op, fields)
        guard let fields = answer?.okFields else {
            Issue.record("\(op) failed: \(String(describing: answer))", sourceLocation: sourceLocation)
            return [:]
        }
        return fields
    }

    /// Adds `other` with their QR code, with the given roles from this person's side.
    func add(_ other: Person, responder: Bool, dependent: Bool) {
        _ = ok(Op.contactsAdd, ["qrCode": .string(other.qrCode), "isResponder": .bool(responder),
                                "isDependent": .bool(dependent)])
    }

    func rotateQRCode() {
        if let code = ok(Op.qrRotate)["qrCode"]?.stringValue { qrCode = code }
    }

    /// Every event each device has been sent so far (all devices settle).
    func settle() -> [[ReceivedEvent]] { devices.map { $0.settle() } }
}

extension RawConnection {
    /// The events this device has been sent until now: a keepalive is the barrier, since
    /// whatever the broker sent before answering it arrives before the answer. On a test cluster
    /// it also waits for the events of its user committed through other brokers (`ClusterSpread`).
    func settle() -> [ReceivedEvent] {
        var events = eventsUntilKeepaliveAnswered()
        guard let userID, let head = ClusterSpread.head(of: userID, port: port) else { return events }
        let deadline = ContinuousClock.now + .seconds(20)
        while lastSeq < head && !isClosed && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
            events += eventsUntilKeepaliveAnswered()
        }
        // `lastSeq` counts what was read off the socket, which may be queued behind the last
        // keepalive's answer: one more round takes those too.
        if hasQueuedEvents { events += eventsUntilKeepaliveAnswered() }
        return events
    }

    private func eventsUntilKeepaliveAnswered() -> [ReceivedEvent] {
        let rid = send(Op.keepalive)
        var events: [ReceivedEvent] = []
        while let message = next() {
            switch message {
            case .event(let seq, let name, let data):
                events.append(ReceivedEvent(seq: seq, name: name, data: data.objectValue ?? [:]))
            case .ok(let r, _) where r == rid, .error(let r, _) where r == rid:
                return events
            default:
                continue
            }
        }
        return events
    }
}

extension Array where Element == ReceivedEvent {
    func named(_ name: String) -> [ReceivedEvent] { filter { $0.name == name } }
    var notifications: [JSONObject] { named(EventName.notificationAdded).compactMap(\.notification) }
    /// Whether each device has a push token, by device, as each `devices.changed` lists them (§12).
    var pushTokenListings: [[String: Bool]] {
        named(EventName.devicesChanged).map { event in
            let devices = (event.data["devices"]?.arrayValue ?? []).compactMap(\.objectValue)
            return Dictionary(devices.map { ($0["device"]?.stringValue ?? "", $0["hasToken"]?.boolValue == true) },
                              uniquingKeysWith: { first, _ in first })
        }
    }
}

extension RawConnection {
    /// Whether a `devices.changed` that lists `device` with `hasToken` reaches this device (bounded:
    /// a change the broker makes of its own commits after it is made).
    func isTold(device: String, hasToken: Bool) -> Bool {
        var told: [ReceivedEvent] = []
        return eventually {
            told += settle()
            return told.pushTokenListings.contains { $0[device] == hasToken }
        }
    }
}

/// The usual cast: a fresh broker, Alice with two devices, and Bob her responder (Alice is
/// Bob's dependent), with the events of their introduction already read.
struct AliceAndBob {
    let broker: BrokerProcess
    let alice: Person
    let bob: Person

    init() throws {
        broker = try BrokerProcess()
        alice = try Person("Alice", port: broker.port, devices: 2)
        bob = try Person("Bob", port: broker.port)
        alice.add(bob, responder: true, dependent: false)
        _ = alice.settle()
        _ = bob.settle()
    }
}
