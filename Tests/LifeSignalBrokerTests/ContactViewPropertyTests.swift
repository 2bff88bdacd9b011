import Foundation
import LifeSignalClient
import LifeSignalFuzzing
import LifeSignalProtocol
import Testing

/// Random sequences of every operation over four users, with devices coming and going so that
/// users load and unload between steps. After each step, and after a restart on the same store,
/// every contact view equals what the other user's own document says (§4), roles are
/// reciprocal, and every device that stayed online holds exactly what a new device is sent.
/// The time limit is a guard against a hang, not a timing assertion (a seed under
/// ThreadSanitizer, beside the other tests on two cores, went past 5 minutes).
@Suite(.timeLimit(.minutes(10)))
struct ContactViewPropertyTests {
    /// Steps per seed. A sanitized pass (scripts/sanitized-tests) looks for memory and thread
    /// errors, not for more sequences, and runs each step many times slower: there the six seeds
    /// took the whole 6-minute ThreadSanitizer pass and crowded the other tests towards their
    /// time limits, so it runs a third of the steps.
    static var steps: Int {
        let environment = ProcessInfo.processInfo.environment
        return environment["ASAN_OPTIONS"] == nil && environment["TSAN_OPTIONS"] == nil ? 150 : 50
    }

    @Test(arguments: [11, 23, 37, 41, 53, 67] as [UInt64])
    func everyContactViewMirrorsTheOtherUsersCurrentDocument(seed: UInt64) async throws {
        let directory = InProcessBroker.newDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var world = try await ContactWorld(broker: try InProcessBroker(directory: directory), seed: seed)
        for step in 0..<Self.steps {
            let operation = try await world.randomStep()
            try await world.checkInvariants(after: "step \(step): \(operation) (seed \(seed))")
        }
        await world.closeDevices()
        world.broker.stop()
        world.broker = try InProcessBroker(directory: directory)
        try await world.checkInvariants(after: "a restart (seed \(seed))")
        world.broker.stop()
    }
}

/// The users of one property run, their devices, and the random operations on them.
struct ContactWorld {
    struct Person {
        let registration: Registration
        /// The device that stays online across steps, while it is.
        var phone: LifeSignalClient?
        var id: String { registration.user.id }
    }

    var broker: InProcessBroker
    var people: [Person] = []
    var random: SplitMix64

    init(broker: InProcessBroker, seed: UInt64) async throws {
        self.broker = broker
        random = SplitMix64(seed: seed)
        for name in ["Alice", "Bob", "Carol", "Dan"] {
            people.append(Person(registration: try await LifeSignalClient.register(
                host: "127.0.0.1", port: broker.port, name: name)))
        }
    }

    func device(of person: Person, _ deviceID: String) throws -> LifeSignalClient {
        try LifeSignalClient(configuration: ClientConfiguration(
            port: broker.port, userID: person.registration.user.id, token: person.registration.token,
            deviceID: deviceID, reconnect: .disabled))
    }

    /// Runs one random operation as a random user; returns what it did, for a failure message.
    /// A refused request (`forbidden`, `not_found`, `conflict`) is part of the game.
    mutating func randomStep() async throws -> String {
        let actor = Int.random(in: 0..<people.count, using: &random)
        var other = Int.random(in: 0..<people.count - 1, using: &random)
        if other >= actor { other += 1 }
        let (me, them) = (people[actor], people[other])
        let flags = (Bool.random(using: &random), Bool.random(using: &random))
        let kind = Int.random(in: 0..<14, using: &random)
        if kind == 0 { return try await togglePhone(of: actor) }
        let description: String
        let operation: @Sendable (LifeSignalClient) async throws -> Void
        switch kind {
        case 1, 2:
            description = "\(me.id) adds \(them.id) as \(flags)"
            operation = { _ = try await $0.addContact(qrCode: them.registration.user.qrCode, isResponder: flags.0,
                                                      isDependent: flags.1) }
        case 3:
            description = "\(me.id) removes \(them.id)"
            operation = { try await $0.removeContact(id: them.id) }
        case 4, 5:
            description = "\(me.id) sets \(them.id)'s roles to \(flags)"
            operation = { _ = try await $0.setContactRoles(id: them.id, isResponder: flags.0, isDependent: flags.1) }
        case 6:
            description = "\(me.id) pings \(them.id)"
            operation = { _ = try await $0.sendPing(to: them.id) }
        case 7:
            description = "\(me.id) answers \(them.id)'s ping"
            operation = { try await $0.respondToPing(from: them.id) }
        case 8, 9:
            description = "\(me.id) checks in"
            operation = { _ = try await $0.checkIn() }
        case 10:
            let message = Bool.random(using: &random) ? "fell on the stairs" : nil
            description = "\(me.id) raises an alert"
            operation = { _ = try await $0.triggerAlert(message: message) }
        case 11:
            description = "\(me.id) cancels the alert"
            operation = { try await $0.cancelAlert() }
        case 12:
            let name = ["Al", "Bea", "Cy", "Di"].randomElement(using: &random)!
            description = "\(me.id) is renamed \(name)"
            operation = { _ = try await $0.updateProfile(name: name) }
        default:
            // Deadlines far enough ahead that none passes during the run.
            let interval = [3_600, 7_200, 86_400].randomElement(using: &random)! as Int64
            description = "\(me.id) sets the interval to \(interval) s"
            operation = { _ = try await $0.updateProfile(checkInIntervalSec: interval) }
        }
        try await run(operation, as: me)
        return description
    }

    /// The user's online phone goes offline, or comes online.
    private mutating func togglePhone(of index: Int) async throws -> String {
        if let phone = people[index].phone {
            await phone.close()
            people[index].phone = nil
            return "\(people[index].id)'s phone goes offline"
        }
        let phone = try device(of: people[index], "phone")
        try await phone.connect()
        people[index].phone = phone
        return "\(people[index].id)'s phone comes online"
    }

    /// Runs `operation` on the user's online phone, else on a device that connects for it alone.
    private func run(_ operation: @Sendable (LifeSignalClient) async throws -> Void, as person: Person) async throws {
        let client = try person.phone ?? device(of: person, "tablet")
        if person.phone == nil { try await client.connect() }
        var failure: (any Error)?
        do {
            try await operation(client)
        } catch let error as LifeSignalClientError {
            if let code = error.serverError?.code, [.forbidden, .notFound, .conflict].contains(code) {} else {
                failure = error
            }
        }
        if person.phone == nil { await client.close() }
        if let failure { throw failure }
    }

    /// What a new device of each user is sent, checked against every rule of §4, and every
    /// online phone against it.
    func checkInvariants(after context: String) async throws {
        var states: [String: DeviceState] = [:]
        for person in people {
            let fresh = try device(of: person, "checker")
            try await fresh.connect()
            let state = await fresh.state
            await fresh.close()
            states[person.id] = state
        }
        for person in people {
            let mine = try #require(states[person.id])
            for contact in mine.contacts.values {
                let theirs = try #require(states[contact.id])
                let other = theirs.user
                #expect(contact.name == other.name, "name, after \(context)")
                let back = theirs.contacts[person.id]
                #expect(back?.isResponder == contact.isDependent && back?.isDependent == contact.isResponder,
                        "reciprocal roles of \(person.id) and \(contact.id), after \(context)")
                let watched = contact.isDependent
                #expect(contact.lastCheckInAt == (watched ? other.lastCheckInAt : nil),
                        "\(person.id)'s view of \(contact.id): lastCheckInAt, after \(context)")
                #expect(contact.checkInDeadline == (watched ? other.checkInDeadline : nil),
                        "\(person.id)'s view of \(contact.id): checkInDeadline, after \(context)")
                #expect(contact.isNonResponsive == (watched && other.isNonResponsive),
                        "\(person.id)'s view of \(contact.id): isNonResponsive, after \(context)")
                #expect(contact.alert == (watched ? other.alert : nil),
                        "\(person.id)'s view of \(contact.id): alert, after \(context)")
            }
            guard let phone = person.phone else { continue }
            // The phone's events may still be on their way; a new device's snapshot is the truth.
            #expect(await poll(every: .milliseconds(5)) { await phone.state?.lastSeq ?? 0 >= mine.lastSeq },
                    "\(person.id)'s phone never reached seq \(mine.lastSeq), after \(context)")
            let phoneState = await phone.state
            let held = try #require(phoneState)
            #expect(held.user == mine.user, "\(person.id)'s phone: user, after \(context)")
            #expect(held.contacts == mine.contacts, "\(person.id)'s phone: contacts, after \(context)")
        }
    }

    func closeDevices() async {
        for person in people { await person.phone?.close() }
    }
}
