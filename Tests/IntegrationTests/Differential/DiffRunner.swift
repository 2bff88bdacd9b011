import Foundation
import LifeSignalProtocol

/// One frame in a transcript, with who received it ("answer", "u1.d0", …).
struct DiffEntry {
    let label: String
    let frame: JSONObject
}

/// What one step caused: its answer and every frame every device received because of it.
struct DiffRecord {
    let title: String
    var entries: [DiffEntry] = []
}

/// Plays a workload on one setup (one broker, or several brokers of one cluster) one step at a
/// time: each step's answer and all the events it causes are in before the next step is sent, so
/// the transcript does not depend on timing. User u's device d goes to broker (u + d) mod count.
final class DiffRunner {
    private let ports: [Int]
    /// Each user's head seq as the cluster's database holds it (nil: one broker, where a
    /// keepalive is barrier enough).
    private let heads: (() throws -> [String: Int64])?
    /// Where the heads were after each record on the other run (by record, then user): what a
    /// cluster's devices wait for before the database is asked (a query per step is slow).
    private let expectedHeads: [[Int64]]
    /// The users' heads after each record, as this run's devices saw them.
    private(set) var seenHeads: [[Int64]] = []

    private var ids: [String] = []
    private var tokens: [String] = []
    private var qrCodes: [[String]] = []  // every QR code a user had, the current last
    private var shown: [[String]] = []    // notification ids each user was shown, first-seen order
    private var wires: [[DiffWire?]] = []
    private var deviceSeqs: [[Int64]] = []
    private(set) var transcript: [DiffRecord] = []
    /// What each request step sent, with its `opId`, for a later step to send again.
    private var sent: [Int: (op: String, fields: JSONObject)] = [:]

    init(ports: [Int], heads: (() throws -> [String: Int64])? = nil, expectedHeads: [[Int64]] = []) {
        self.ports = ports
        self.heads = heads
        self.expectedHeads = expectedHeads
    }

    private func port(user: Int, device: Int) -> Int { ports[(user + device) % ports.count] }

    /// Registers the users, brings every device online, plays `steps`, and ends with what a fresh
    /// device of each user is shown and each user's notification pages.
    func play(_ steps: [DiffStep]) throws -> [DiffRecord] {
        var setup = DiffRecord(title: "setup")
        for user in 0..<DiffWorkload.users {
            let wire = try DiffWire(port: ports[user % ports.count])
            let answer = wire.until(answerTo: wire.send(Op.register, ["name": .string("User \(user)")])).answer
            guard let fields = answer, let document = fields["user"]?.objectValue,
                  let id = document["id"]?.stringValue, let token = fields["token"]?.stringValue,
                  let qr = document["qrCode"]?.stringValue else { throw SetupFailed(answer: answer) }
            setup.entries.append(DiffEntry(label: "register", frame: fields))
            ids.append(id)
            tokens.append(token)
            qrCodes.append([qr])
            shown.append([])
            wires.append(Array(repeating: nil, count: DiffWorkload.devices(of: user)))
            deviceSeqs.append(Array(repeating: 0, count: DiffWorkload.devices(of: user)))
        }
        transcript.append(setup)
        seenHeads.append([])
        for user in 0..<DiffWorkload.users {
            for device in 0..<DiffWorkload.devices(of: user) {
                try run(.connect(user: user, device: device, resume: .none))
            }
        }
        for (index, step) in steps.enumerated() { try run(step, index: index) }
        try finish()
        return transcript
    }

    struct SetupFailed: Error { let answer: JSONObject? }

    // MARK: Steps

    /// `index`: the step's place in the workload, which names its request's `opId`.
    private func run(_ step: DiffStep, index: Int = -1) throws {
        let started = ContinuousClock.now
        defer { Self.trace("\(transcript.count - 1) \(step) \(ContinuousClock.now - started)") }
        var record = DiffRecord(title: step.description)
        switch step {
        case .connect(let user, let device, let resume):
            let seq: Int64? = switch resume {
            case .none: nil
            case .last: deviceSeqs[user][device]
            case .zero: 0
            case .ahead: deviceSeqs[user][device] + 1000
            }
            let wire = try DiffWire(port: port(user: user, device: device))
            record.entries += try hello(wire, user: user, device: "d\(device)", resume: seq)
            if let old = wires[user][device] {
                // Replaced: the old connection is told so and closed.
                let frames = old.take(until: { $0.isClosed })
                record.entries += frames.map { DiffEntry(label: "u\(user).d\(device) old", frame: $0) }
                absorb(frames, user: user)
                wires[user][device] = nil
            }
            if !wire.isClosed { wires[user][device] = wire }
            deviceSeqs[user][device] = max(deviceSeqs[user][device], wire.lastSeq)
        case .hangUp(let user, let device):
            guard let wire = wires[user][device] else { break }
            wire.hangUp()
            let frames = wire.take(until: { $0.isClosed })
            record.entries += frames.map { DiffEntry(label: "u\(user).d\(device) last", frame: $0) }
            absorb(frames, user: user)
            wires[user][device] = nil
            let late = waitUntilOffline(user: user, device: device)
            record.entries += late.map { DiffEntry(label: "u\($0.user).d\($0.device)", frame: $0.frame) }
        case .request(let user, let device, let request):
            guard let wire = wires[user][device] else {
                record.entries.append(DiffEntry(label: "offline", frame: [:]))
                break
            }
            var (op, fields) = self.request(request, by: user)
            fields["opId"] = .string("op-\(index)")
            sent[index] = (op, fields)
            send(op, fields, on: wire, user: user, device: device, into: &record)
        case .resend(let user, let device, let step):
            guard let wire = wires[user][device], let (op, fields) = sent[step] else {
                record.entries.append(DiffEntry(label: "offline, or never sent", frame: [:]))
                break
            }
            send(op, fields, on: wire, user: user, device: device, into: &record)
        }
        record.entries += try settle()
        transcript.append(record)
    }

    private func send(_ op: String, _ fields: JSONObject, on wire: DiffWire, user: Int, device: Int,
                      into record: inout DiffRecord) {
        let (answer, before) = wire.until(answerTo: wire.send(op, fields))
        record.entries += before.map { DiffEntry(label: "u\(user).d\(device)", frame: $0) }
        record.entries.append(DiffEntry(label: "answer", frame: answer ?? ["none": true]))
        absorb(before + (answer.map { [$0] } ?? []), user: user)
    }

    /// Says hello on `wire` and takes its catch-up (the snapshot, or the events to `lastSeq`).
    private func hello(_ wire: DiffWire, user: Int, device: String, resume: Int64?) throws -> [DiffEntry] {
        var fields: JSONObject = [
            "version": 1, "user": .string(ids[user]), "token": .string(tokens[user]), "device": .string(device),
            "platform": "ios",
        ]
        if let resume { fields["resume"] = .int(resume) }
        let (answer, before) = wire.until(answerTo: wire.send(Op.hello, fields))
        var frames = before + [answer ?? ["none": true]]
        if let lastSeq = answer?["lastSeq"]?.intValue, answer?["op"]?.stringValue == Op.ok {
            // A snapshot, or the events after `resume` (none when it is the head).
            if let resume { wire.resumed(at: min(resume, lastSeq)) }
            if resume != lastSeq { frames += wire.take(until: { $0.sawSnapshot || (resume != nil && $0.lastSeq >= lastSeq) || $0.isClosed }) }
        }
        absorb(frames, user: user)
        return frames.map { DiffEntry(label: "u\(user).\(device) hello", frame: $0) }
    }

    /// Every online device's frames up to its user's head, in a fixed order.
    /// On a cluster a keepalive is a barrier only for its own broker: the devices first wait for
    /// the heads the other run reached, and if those do not come, for the database's.
    private func settle() throws -> [DiffEntry] {
        var entries: [DiffEntry] = []
        var frames = wires.map { $0.map { _ in [JSONObject]() } }
        if let heads {
            let expected = transcript.count < expectedHeads.count ? expectedHeads[transcript.count] : nil
            var reached = true
            for (user, device, wire) in online {
                let head = expected.flatMap { $0.indices.contains(user) ? $0[user] : nil } ?? .max
                frames[user][device] += wire.take(until: { $0.lastSeq >= head || $0.isClosed }, timeout: .seconds(2))
                reached = reached && (wire.lastSeq >= head || wire.isClosed)
            }
            if !reached {
                let heads = try heads()
                for (user, device, wire) in online {
                    let head = heads[ids[user]] ?? 0
                    frames[user][device] += wire.take(until: { $0.lastSeq >= head || $0.isClosed })
                    if wire.lastSeq < head, !wire.isClosed { Self.trace("u\(user).d\(device) at \(wire.lastSeq) < \(head)") }
                }
            }
        }
        for (user, device, wire) in online {
            let (_, before) = wire.until(answerTo: wire.send(Op.keepalive))
            frames[user][device] += before
        }
        for user in wires.indices {
            for device in wires[user].indices {
                guard let wire = wires[user][device] else { continue }
                let frames = frames[user][device]
                entries += frames.map { DiffEntry(label: "u\(user).d\(device)", frame: $0) }
                absorb(frames, user: user)
                deviceSeqs[user][device] = max(deviceSeqs[user][device], wire.lastSeq)
                if wire.isClosed { wires[user][device] = nil }
            }
        }
        seenHeads.append(deviceSeqs.map { $0.max() ?? 0 })
        return entries
    }

    private var online: [(user: Int, device: Int, wire: DiffWire)] {
        wires.indices.flatMap { user in
            wires[user].indices.compactMap { device in wires[user][device].map { (user, device, $0) } }
        }
    }

    /// Once a device hung up, its broker must have seen it go before the next step (`online` in
    /// `devices.list`, pushes): asked from another device of the user, not recorded.
    private func waitUntilOffline(user: Int, device: Int) -> [(user: Int, device: Int, frame: JSONObject)] {
        guard let index = wires[user].firstIndex(where: { $0 != nil }), let other = wires[user][index] else { return [] }
        var late: [(user: Int, device: Int, frame: JSONObject)] = []  // none expected: everything settled
        _ = eventually {
            let (answer, before) = other.until(answerTo: other.send(Op.devicesList))
            late += before.map { (user, index, $0) }
            return answer?["devices"]?.arrayValue?.contains {
                $0.objectValue?["device"]?.stringValue == "d\(device)" && $0.objectValue?["online"]?.boolValue == true
            } == false
        }
        return late
    }

    /// Learns the ids the runner needs later: QR codes and notification ids a user was shown.
    private func absorb(_ frames: [JSONObject], user: Int) {
        func note(_ notification: JSONValue?) {
            guard let id = notification?.objectValue?["id"]?.stringValue, !shown[user].contains(id) else { return }
            shown[user].append(id)
        }
        func learn(_ document: JSONValue?) {
            guard let document = document?.objectValue, let qr = document["qrCode"]?.stringValue,
                  let owner = ids.firstIndex(where: { $0 == document["id"]?.stringValue }),
                  qrCodes[owner].last != qr else { return }
            qrCodes[owner].append(qr)
        }
        for frame in frames {
            learn(frame["user"])
            if let code = frame["qrCode"]?.stringValue, qrCodes[user].last != code { qrCodes[user].append(code) }
            for notification in frame["notifications"]?.arrayValue ?? [] { note(notification) }
            if let data = frame["data"]?.objectValue {
                note(data["notification"])
                learn(data["user"])
            }
        }
    }

    /// With LIFESIGNAL_DIFF_TRACE set, each step and how long it took, on stderr.
    static func trace(_ line: @autoclosure () -> String) {
        guard ProcessInfo.processInfo.environment["LIFESIGNAL_DIFF_TRACE"] != nil else { return }
        FileHandle.standardError.write(Data((line() + "\n").utf8))
    }

    // MARK: Requests

    private func code(_ qr: DiffQR, by user: Int) -> String {
        switch qr {
        case .of(let other): qrCodes[other].last!
        case .own: qrCodes[user].last!
        case .unknown: "NOSUCHCODE23"
        case .previous(let other): qrCodes[other].dropLast().last ?? qrCodes[other].last!
        }
    }

    private func request(_ request: DiffRequest, by user: Int) -> (String, JSONObject) {
        func contact(_ other: Int) -> JSONValue { .string(other < 0 ? "u_nobody" : ids[other]) }
        switch request {
        case .addContact(let qr, let responder, let dependent):
            return (Op.contactsAdd, ["qrCode": .string(code(qr, by: user)), "isResponder": .bool(responder),
                                     "isDependent": .bool(dependent)])
        case .lookUp(let qr):
            return (Op.qrLookup, ["qrCode": .string(code(qr, by: user))])
        case .setRoles(let other, let responder, let dependent):
            return (Op.contactsSetRoles, ["contactId": contact(other), "isResponder": .bool(responder),
                                          "isDependent": .bool(dependent)])
        case .removeContact(let other): return (Op.contactsRemove, ["contactId": contact(other)])
        case .listContacts: return (Op.contactsList, [:])
        case .pingSend(let other): return (Op.pingSend, ["contactId": contact(other)])
        case .pingRespond(let other): return (Op.pingRespond, ["contactId": contact(other)])
        case .pingClear(let other): return (Op.pingClear, ["contactId": contact(other)])
        case .checkIn: return (Op.checkIn, [:])
        case .alertTrigger(let message): return (Op.alertTrigger, message.map { ["message": .string($0)] } ?? [:])
        case .alertCancel: return (Op.alertCancel, [:])
        case .profileUpdate(let name, let interval, let push, let muted):
            var fields: JSONObject = [:]
            if let name { fields["name"] = .string(name) }
            if let interval { fields["checkInIntervalSec"] = .int(Int64(interval)) }
            if push != nil || muted != nil {
                fields["preferences"] = .object(["push": .bool(push ?? true),
                                                 "mutedTypes": .array((muted ?? []).map { .string($0) })])
            }
            return (Op.profileUpdate, fields)
        case .qrRotate: return (Op.qrRotate, [:])
        case .listNotifications(let limit, let before):
            var fields: JSONObject = [:]
            if let limit { fields["limit"] = .int(Int64(limit)) }
            if let before { fields["before"] = .string(notificationID(before, of: user)) }
            return (Op.notificationsList, fields)
        case .read(let which): return (Op.notificationsRead, ["id": .string(notificationID(which, of: user))])
        case .delete(let which): return (Op.notificationsDelete, ["id": .string(notificationID(which, of: user))])
        case .readAll: return (Op.notificationsReadAll, [:])
        case .registerToken(let number):
            return (Op.deviceRegister, ["token": .string("token-\(number)"), "platform": "android"])
        case .unregisterToken: return (Op.deviceUnregister, [:])
        case .listDevices: return (Op.devicesList, [:])
        case .keepalive: return (Op.keepalive, [:])
        }
    }

    private func notificationID(_ which: DiffNotification, of user: Int) -> String {
        switch which {
        case .unknown: return "n_nosuchnotification"
        case .own(let index): return shown[user].isEmpty ? "n_none" : shown[user][index % shown[user].count]
        case .others(let other, let index): return shown[other].isEmpty ? "n_none" : shown[other][index % shown[other].count]
        }
    }

    // MARK: The end

    /// A fresh device of each user (its snapshot), then every page of its notifications, its
    /// contacts and its devices.
    private func finish() throws {
        for user in 0..<DiffWorkload.users {
            var record = DiffRecord(title: "u\(user) fresh device")
            let wire = try DiffWire(port: ports[(user + 1) % ports.count])
            record.entries += try hello(wire, user: user, device: "fresh", resume: nil)
            var before: String?
            for page in 0..<40 {
                var fields: JSONObject = ["limit": 3]
                if let before { fields["before"] = .string(before) }
                let (answer, _) = wire.until(answerTo: wire.send(Op.notificationsList, fields))
                record.entries.append(DiffEntry(label: "page \(page)", frame: answer ?? ["none": true]))
                guard let last = answer?["notifications"]?.arrayValue?.last?.objectValue?["id"]?.stringValue else { break }
                before = last
            }
            for op in [Op.contactsList, Op.devicesList] {
                let (answer, _) = wire.until(answerTo: wire.send(op))
                record.entries.append(DiffEntry(label: op, frame: answer ?? ["none": true]))
            }
            wire.hangUp()
            _ = wire.take(until: { $0.isClosed })
            record.entries += try settle()
            transcript.append(record)
        }
    }
}
