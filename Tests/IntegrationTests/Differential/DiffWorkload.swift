import LifeSignalFuzzing

/// The differential test's workload: abstract steps over a few users and their devices, made
/// from a seed alone. Users and devices are indices; the runner turns them into ids, QR codes and
/// notification ids of the run it plays them in, so the same steps mean the same thing on both
/// engines.
enum DiffStep: CustomStringConvertible {
    /// A device says hello (replacing its own connection when it is online).
    case connect(user: Int, device: Int, resume: DiffResume)
    /// A device's network drops.
    case hangUp(user: Int, device: Int)
    /// A request, under the `opId` of its step's index (§12).
    case request(user: Int, device: Int, DiffRequest)
    /// The request of an earlier step of the same user sent again under its `opId`, from this
    /// device: as if its answer had been lost.
    case resend(user: Int, device: Int, step: Int)

    var description: String {
        switch self {
        case .connect(let user, let device, let resume): "u\(user).d\(device) hello resume=\(resume)"
        case .hangUp(let user, let device): "u\(user).d\(device) hangs up"
        case .request(let user, let device, let request): "u\(user).d\(device) \(request)"
        case .resend(let user, let device, let step): "u\(user).d\(device) resends step \(step)"
        }
    }
}

enum DiffResume: Equatable {
    case none
    /// The last seq this device was sent.
    case last
    /// 0: everything since the start, so a snapshot once the oldest events were pruned.
    case zero
    /// Past the user's head: a snapshot.
    case ahead
}

/// Whose QR code a `contacts.add` shows.
enum DiffQR {
    case of(Int)
    /// The user's own (`bad_request`).
    case own
    /// A code nobody has (`not_found`).
    case unknown
    /// A user's code from before their latest `qr.rotate` (`not_found` once rotated).
    case previous(Int)
}

/// Which notification id a notification request names.
enum DiffNotification {
    /// The n-th (modulo) of the ids this user has been shown, oldest first.
    case own(Int)
    /// Another user's (`not_found`: §10, a user reads only its own).
    case others(user: Int, Int)
    case unknown
}

enum DiffRequest {
    case addContact(DiffQR, responder: Bool, dependent: Bool)
    /// `contact` -1: an id that is nobody's.
    case setRoles(contact: Int, responder: Bool, dependent: Bool)
    case removeContact(Int)
    case listContacts
    case pingSend(Int), pingRespond(Int), pingClear(Int)
    case checkIn
    case alertTrigger(message: String?)
    case alertCancel
    case profileUpdate(name: String?, intervalSec: Int?, push: Bool?, muted: [String]?)
    case qrRotate
    case lookUp(DiffQR)
    case listNotifications(limit: Int?, before: DiffNotification?)
    case read(DiffNotification), delete(DiffNotification)
    case readAll
    case registerToken(Int)
    case unregisterToken
    case listDevices
    case keepalive
}

struct DiffWorkload {
    static let users = 4
    /// Devices of user u: 2 or 3.
    static func devices(of user: Int) -> Int { user % 2 == 0 ? 3 : 2 }

    let seed: UInt64
    let steps: [DiffStep]

    init(seed: UInt64, count: Int) {
        self.seed = seed
        var random = SplitMix64(seed: seed)
        var online = (0..<Self.users).map { Array(repeating: true, count: Self.devices(of: $0)) }
        var contacts = Array(repeating: Set<Int>(), count: Self.users)
        var requested = Array(repeating: [Int](), count: Self.users)  // each user's request steps
        var steps: [DiffStep] = []
        while steps.count < count {
            let user = random.pick(Self.users)
            let device = random.pick(Self.devices(of: user))
            if !online[user][device] {
                // An offline device mostly comes back: with its last seq, or asking for more or less.
                let resume: DiffResume = [.last, .last, .last, .none, .zero, .ahead][random.pick(6)]
                steps.append(.connect(user: user, device: device, resume: resume))
                online[user][device] = true
                continue
            }
            let roll = random.pick(100)
            if roll < 8 {
                // Stay online on another device most of the time, so that events keep flowing.
                steps.append(.hangUp(user: user, device: device))
                online[user][device] = false
            } else if roll < 10 {
                steps.append(.connect(user: user, device: device, resume: .last))  // replaces itself
            } else if roll < 14, !requested[user].isEmpty {
                steps.append(.resend(user: user, device: device, step: requested[user][random.pick(requested[user].count)]))
            } else {
                let request = Self.request(by: user, among: contacts[user], &random)
                // A rough model of who is whose contact, so that most requests name one (a
                // request that fails is in the workload too, but it changes nothing).
                switch request {
                case .addContact(.of(let other), _, _):
                    contacts[user].insert(other)
                    contacts[other].insert(user)
                case .removeContact(let other) where other >= 0:
                    contacts[user].remove(other)
                    contacts[other].remove(user)
                default: break
                }
                requested[user].append(steps.count)
                steps.append(.request(user: user, device: device, request))
            }
        }
        self.steps = steps
    }

    private static func request(by user: Int, among contacts: Set<Int>, _ random: inout SplitMix64) -> DiffRequest {
        let anyone = (user + 1 + random.pick(Self.users - 1)) % Self.users
        let known = contacts.sorted()
        let other = known.isEmpty || random.pick(4) == 0 ? anyone : known[random.pick(known.count)]
        let contact = random.pick(10) == 0 ? -1 : other
        let roles = (random.pick(2) == 0, random.pick(2) == 0)
        // Weighted towards what makes notifications, so that histories fill past their limits.
        switch random.pick(100) {
        case 0..<14:
            let qr: DiffQR = switch random.pick(10) {
            case 0: .own
            case 1: .unknown
            case 2: .previous(other)
            default: .of(known.count < Self.users - 1 && random.pick(4) != 0
                          ? (0..<Self.users).filter { $0 != user && !contacts.contains($0) }[0] : other)
            }
            return .addContact(qr, responder: roles.0, dependent: roles.1)
        case 14..<28: return .setRoles(contact: contact, responder: roles.0, dependent: roles.1)
        case 28..<33: return .removeContact(contact)
        case 33..<34: return .listContacts
        case 34..<46: return .pingSend(contact)
        case 46..<52: return .pingRespond(contact)
        case 52..<54: return .pingClear(contact)
        case 54..<58: return .checkIn
        case 58..<66: return .alertTrigger(message: random.pick(2) == 0 ? nil : "help \(random.pick(100))")
        case 66..<72: return .alertCancel
        case 72..<76:
            let muted = [["ping"], [], ["alert", "checkIn"]][random.pick(3)]
            return .profileUpdate(
                name: random.pick(2) == 0 ? "User \(user) \(random.pick(1000))" : nil,
                intervalSec: random.pick(3) == 0 ? 3600 * (1 + random.pick(48)) : nil,
                push: random.pick(4) == 0 ? random.pick(2) == 0 : nil,
                muted: random.pick(4) == 0 ? muted : nil)
        case 76..<78: return .qrRotate
        case 78..<83:
            let before: DiffNotification? = switch random.pick(4) {
            case 0: nil
            case 1: .unknown
            default: .own(random.pick(1000))
            }
            return .listNotifications(limit: random.pick(2) == 0 ? nil : 1 + random.pick(8), before: before)
        case 83..<89: return .read(notification(of: user, other: other, &random))
        case 89..<92: return .delete(notification(of: user, other: other, &random))
        case 92..<94: return .readAll
        case 94..<96: return .registerToken(random.pick(5))
        case 96..<97: return .unregisterToken
        case 97..<99: return .listDevices
        // Half the keepalives are lookups: no draw of their own, so every seed keeps its sequence.
        default: return roles.0 ? .lookUp(contact < 0 ? .unknown : roles.1 ? .of(other) : .previous(other)) : .keepalive
        }
    }

    private static func notification(of user: Int, other: Int, _ random: inout SplitMix64) -> DiffNotification {
        switch random.pick(10) {
        case 0: .unknown
        case 1: .others(user: other, random.pick(1000))
        default: .own(random.pick(1000))
        }
    }
}

extension SplitMix64 {
    /// A value in `0..<bound` (SplitMix64's own `below` is internal to its module).
    mutating func pick(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
