import LifeSignalProtocol
import LifeSignalRules

/// What a device's request comes to, whichever store runs it (ARCHITECTURE.md, "One engine"):
/// which rule, over whose accounts, with which limits. Written once, so the embedded broker and
/// a cluster cannot map an op to different rules, scopes or limits; each executor only carries
/// out the plan against its store.
package enum RequestPlan: Sendable {
    package typealias Rules = @Sendable (inout Step) throws(ProtocolError) -> Reply
    /// A rule over one of the user's notifications, as the store has it (nil: none of theirs).
    package typealias NotificationRule = @Sendable (Notification?, inout Step) throws(ProtocolError) -> Reply

    /// One step of `rules` over the user's account and those of `Involved`.
    case step(Involved, Rules)
    /// `contacts.add` and `qr.lookup`: the owner of `qrCode` is looked up first, then `use`d. No
    /// owner: `QRCodeRules.unknown`, counted as a failed add (§10); past that quota, neither runs.
    case byQRCode(String, QRCodeUse)
    /// `notifications.read` and `.delete`: `rule` over the user's notification `id`.
    case changeNotification(id: String, rule: NotificationRule)
    /// `notifications.readAll`: `rule` over the number of unread notifications in the history.
    case readAllNotifications(rule: @Sendable (_ unread: Int, inout Step) -> Reply)
    /// `device.register` and `device.unregister`: the requesting device's push token changes.
    case changePushToken(PushTokenChange)
    /// A read that changes nothing.
    case read(Read)
    /// `account.delete`: one step of `rules` over the user and every contact, on its own (the
    /// user's rows are gone after it, for any step that would follow in a batch); once it is
    /// answered, every device of the user, on every broker, is closed with `account_deleted`.
    case eraseAccount(Rules)
    /// `device.link`: a new one-time code stored for the user (`LinkCode.issue`).
    case linkDevice
    /// `device.revoke`: `rule` over the user's devices as the store has them.
    case revokeDevice(rule: @Sendable ([DeviceInfo], inout Step) throws(ProtocolError) -> Reply)

    package enum QRCodeUse: Sendable {
        /// `contacts.add`: the owner is involved in the rules.
        case add(@Sendable (_ ownerID: String) -> Rules)
        /// `qr.lookup`: the answer, from the owner alone; nothing changes.
        case show(@Sendable (QRCodeOwner) throws(ProtocolError) -> Reply)
    }

    package enum Read: Sendable, Equatable {
        case contacts
        case devices
        case notifications(before: String?, limit: Int)
    }

    /// The plan of `command`, sent by `userID`.
    package init(_ command: DeviceCommand, by userID: String, limits: RuleLimits) {
        switch command {
        case .profileUpdate(let change):
            // Every contact may see the change (a name to all).
            self = .step(.allContacts) { (step) throws(ProtocolError) in
                try ProfileRules.update(by: userID, change, minCheckInIntervalSec: limits.minCheckInIntervalSec,
                                        in: &step)
            }
        case .qrRotate:
            // Only the user's own document changes, which no contact's view shows.
            self = .step(.nobody) { (step) throws(ProtocolError) in try ProfileRules.rotateQRCode(of: userID, in: &step) }
        case .qrLookup(let qrCode):
            self = .byQRCode(qrCode, .show { (owner) throws(ProtocolError) in try QRCodeRules.lookUp(owner, by: userID) })
        case .deviceRegister(let token, let platform):
            self = .changePushToken(.register(token: token, platform: platform))
        case .deviceUnregister:
            self = .changePushToken(.unregister)
        case .devicesList:
            self = .read(.devices)
        case .contactsAdd(let qrCode, let isResponder, let isDependent):
            self = .byQRCode(qrCode, .add { ownerID in
                { (step) throws(ProtocolError) in
                    try ContactRules.add(ownerID, by: userID, qrCode: qrCode, isResponder: isResponder,
                                         isDependent: isDependent, maxContacts: limits.maxContacts, in: &step)
                }
            })
        case .contactsRemove(let contactID):
            self = .step(.named([contactID])) { (step) throws(ProtocolError) in
                try ContactRules.remove(contactID, by: userID, in: &step)
            }
        case .contactsSetRoles(let contactID, let isResponder, let isDependent):
            self = .step(.named([contactID])) { (step) throws(ProtocolError) in
                try ContactRules.setRoles(of: contactID, by: userID, isResponder: isResponder,
                                          isDependent: isDependent, in: &step)
            }
        case .contactsList:
            self = .read(.contacts)
        case .pingSend(let contactID):
            self = .step(.named([contactID])) { (step) throws(ProtocolError) in
                try PingRules.send(to: contactID, by: userID, in: &step)
            }
        case .pingRespond(let contactID):
            self = .step(.named([contactID])) { (step) throws(ProtocolError) in
                try PingRules.respond(to: contactID, by: userID, in: &step)
            }
        case .pingClear(let contactID):
            self = .step(.named([contactID])) { (step) throws(ProtocolError) in
                try PingRules.clear(to: contactID, by: userID, in: &step)
            }
        case .checkIn:
            self = .step(.responders) { (step) throws(ProtocolError) in try SafetyRules.checkIn(by: userID, in: &step) }
        case .alertTrigger(let message):
            self = .step(.responders) { (step) throws(ProtocolError) in
                try SafetyRules.triggerAlert(by: userID, message: message, in: &step)
            }
        case .alertCancel:
            self = .step(.responders) { (step) throws(ProtocolError) in try SafetyRules.cancelAlert(by: userID, in: &step) }
        case .notificationsList(let before, let limit):
            self = .read(.notifications(before: before, limit: limit))
        case .notificationsRead(let id):
            self = .changeNotification(id: id) { (notification, step) throws(ProtocolError) in
                try NotificationRules.read(notification, of: userID, in: &step)
            }
        case .notificationsReadAll:
            self = .readAllNotifications { unread, step in NotificationRules.readAll(unread: unread, of: userID, in: &step) }
        case .accountDelete(let confirm):
            self = .eraseAccount { (step) throws(ProtocolError) in
                try AccountRules.delete(userID, confirm: confirm, in: &step)
            }
        case .deviceLink:
            self = .linkDevice
        case .deviceRevoke(let device):
            self = .revokeDevice { (devices, step) throws(ProtocolError) in
                try DeviceRules.revoke(device, of: userID, devices: devices, in: &step)
            }
        case .notificationsDelete(let id):
            self = .changeNotification(id: id) { (notification, step) throws(ProtocolError) in
                try NotificationRules.delete(notification, of: userID, in: &step)
            }
        }
    }
}
