import LifeSignalProtocol
import LifeSignalRules

extension ClusterDevice {
    /// Entry point for every request of an authenticated device of the cluster (§3, §5): the same
    /// rules as the embedded broker, as steps against PostgreSQL.
    func route(_ request: Request, from connection: ClientConnection) {
        do throws(ProtocolError) {
            try handle(request, from: connection)
        } catch {
            refuse(request, on: connection, error)
        }
    }

    private func handle(_ request: Request, from connection: ClientConnection) throws(ProtocolError) {
        guard !connection.answerSessionRequest(request) else { return }
        let minimumInterval = node.configuration.minCheckInIntervalSec
        switch try DeviceCommand(request) {
        case .profileUpdate(let change):
            step(request, on: connection, involving: .allContacts) { (step, userID) throws(ProtocolError) in
                try ProfileRules.update(by: userID, change, minCheckInIntervalSec: minimumInterval, in: &step)
            }
        case .qrRotate:
            step(request, on: connection) { (step, userID) throws(ProtocolError) in
                try ProfileRules.rotateQRCode(of: userID, in: &step)
            }
        case .deviceRegister(let token, let platform):
            registerPushToken(token, platform: platform, request, from: connection)
        case .deviceUnregister:
            unregisterPushToken(request, from: connection)
        case .devicesList:
            listDevices(request, from: connection)
        case .contactsAdd(let qrCode, let isResponder, let isDependent):
            addContact(qrCode: qrCode, isResponder: isResponder, isDependent: isDependent, request, from: connection)
        case .contactsList:
            let userID = self.userID
            answer(request, on: connection, { try await $0.contactViews(of: userID) }, finish: { contacts in
                .fields(["contacts": .array(contacts.map(\.json))])
            })
        case .contactsRemove(let contactID):
            withContact(contactID, request, from: connection) { (step, userID) throws(ProtocolError) in
                try ContactRules.remove(contactID, by: userID, in: &step)
            }
        case .contactsSetRoles(let contactID, let isResponder, let isDependent):
            withContact(contactID, request, from: connection) { (step, userID) throws(ProtocolError) in
                try ContactRules.setRoles(of: contactID, by: userID, isResponder: isResponder,
                                          isDependent: isDependent, in: &step)
            }
        case .pingSend(let contactID):
            withContact(contactID, request, from: connection) { (step, userID) throws(ProtocolError) in
                try PingRules.send(to: contactID, by: userID, in: &step)
            }
        case .pingRespond(let contactID):
            withContact(contactID, request, from: connection) { (step, userID) throws(ProtocolError) in
                try PingRules.respond(to: contactID, by: userID, in: &step)
            }
        case .pingClear(let contactID):
            withContact(contactID, request, from: connection) { (step, userID) throws(ProtocolError) in
                try PingRules.clear(to: contactID, by: userID, in: &step)
            }
        case .checkIn:
            step(request, on: connection, involving: .responders) { (step, userID) throws(ProtocolError) in
                try SafetyRules.checkIn(by: userID, in: &step)
            }
        case .alertTrigger(let message):
            step(request, on: connection, involving: .responders) { (step, userID) throws(ProtocolError) in
                try SafetyRules.triggerAlert(by: userID, message: message, in: &step)
            }
        case .alertCancel:
            step(request, on: connection, involving: .responders) { (step, userID) throws(ProtocolError) in
                try SafetyRules.cancelAlert(by: userID, in: &step)
            }
        case .notificationsList(let before, let limit):
            listNotifications(before: before, limit: limit, request, from: connection)
        case .notificationsRead(let id):
            changeNotification(id, request, from: connection) { (notification, userID, step) throws(ProtocolError) in
                try NotificationRules.read(notification, of: userID, in: &step)
            }
        case .notificationsReadAll:
            readAllNotifications(request, from: connection)
        case .notificationsDelete(let id):
            changeNotification(id, request, from: connection) { (notification, userID, step) throws(ProtocolError) in
                try NotificationRules.delete(notification, of: userID, in: &step)
            }
        }
    }

    /// `contacts.add`: the owner of the QR code, looked up first, becomes a contact (§5); unknown
    /// codes count against the user's `failedAddsPerMinute` (§10).
    private func addContact(qrCode: String, isResponder: Bool, isDependent: Bool, _ request: Request,
                            from connection: ClientConnection) {
        let (userID, maxContacts) = (self.userID, node.configuration.maxContacts)
        guard let broker = node.broker else { return }
        if let refusal = broker.onLoop({ $0.failedAddsRefusal(for: userID) }) {
            return refuse(request, on: connection, refusal)
        }
        answer(request, on: connection, { executor -> ClusterExecutor.Commit<JSONObject>? in
            guard let otherID = try await executor.userID(forQRCode: qrCode) else { return nil }
            return try await executor.perform(as: userID, involving: .named([otherID]), now: WallClock.nowMs()) {
                (step) throws(ProtocolError) in
                try ContactRules.add(otherID, by: userID, qrCode: qrCode, isResponder: isResponder,
                                     isDependent: isDependent, maxContacts: maxContacts, in: &step)
            }
        }, finish: { [self, node] commit in
            guard let commit else {
                node.broker?.onLoop { $0.recordFailedAdd(by: userID) }
                return .refused(.notFound("no user has that QR code"))
            }
            return committed(commit)
        })
    }

    /// Runs `rules` for a request naming an existing contact: both sides change in one step.
    private func withContact(_ contactID: String, _ request: Request, from connection: ClientConnection,
                             _ rules: @escaping @Sendable (inout Step, String) throws(ProtocolError) -> JSONObject) {
        step(request, on: connection, involving: .named([contactID]), rules)
    }
}
