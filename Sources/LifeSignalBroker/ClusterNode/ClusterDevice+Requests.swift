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
        switch request.op {
        case Op.profileUpdate:
            step(request, on: connection, involving: .allContacts) { (step, userID) throws(ProtocolError) in
                try ProfileRules.update(by: userID, request, minCheckInIntervalSec: minimumInterval, in: &step)
            }
        case Op.qrRotate:
            step(request, on: connection) { (step, userID) throws(ProtocolError) in
                try ProfileRules.rotateQRCode(of: userID, in: &step)
            }
        case Op.deviceRegister, Op.deviceUnregister, Op.devicesList:
            try handleDevice(request, from: connection)
        case Op.contactsAdd:
            try addContact(request, from: connection)
        case Op.contactsList:
            let userID = self.userID
            answer(request, on: connection, { try await $0.contactViews(of: userID) }, finish: { contacts in
                .fields(["contacts": .array(contacts.map(\.json))])
            })
        case Op.contactsRemove, Op.contactsSetRoles, Op.pingSend, Op.pingRespond, Op.pingClear:
            try handleContact(request, from: connection)
        case Op.checkIn:
            step(request, on: connection, involving: .responders) { (step, userID) throws(ProtocolError) in
                try SafetyRules.checkIn(by: userID, in: &step)
            }
        case Op.alertTrigger:
            let message = try request.optionalString("message").map { (text) throws(ProtocolError) in
                try Validate.message(text)
            }
            step(request, on: connection, involving: .responders) { (step, userID) throws(ProtocolError) in
                try SafetyRules.triggerAlert(by: userID, message: message, in: &step)
            }
        case Op.alertCancel:
            step(request, on: connection, involving: .responders) { (step, userID) throws(ProtocolError) in
                try SafetyRules.cancelAlert(by: userID, in: &step)
            }
        case Op.notificationsList, Op.notificationsRead, Op.notificationsReadAll, Op.notificationsDelete:
            try handleNotification(request, from: connection)
        default:
            throw ProtocolError(.unknownOp, "unknown op '\(request.op)'")
        }
    }

    /// `contacts.add`: the owner of the QR code, looked up first, becomes a contact (§5); unknown
    /// codes count against the user's `failedAddsPerMinute` (§10).
    private func addContact(_ request: Request, from connection: ClientConnection) throws(ProtocolError) {
        let qrCode = try Validate.id(try request.string("qrCode"), field: "qrCode")
        let isResponder = try request.bool("isResponder")
        let isDependent = try request.bool("isDependent")
        let (userID, maxContacts) = (self.userID, node.configuration.maxContacts)
        guard let broker = node.broker else { return }
        let nowMs = node.loop.cachedNowMs
        guard broker.onLoop({ $0.failedAdds.hasToken(userID, nowMs: nowMs) }) else {
            throw ProtocolError(.rateLimited, "too many contacts.add with unknown QR codes")
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
                let nowMs = node.loop.cachedNowMs
                node.broker?.onLoop { _ = $0.failedAdds.take(userID, nowMs: nowMs) }
                return .refused(.notFound("no user has that QR code"))
            }
            return committed(commit)
        })
    }

    /// The requests that name an existing contact in `contactId`: both sides change in one step.
    private func handleContact(_ request: Request, from connection: ClientConnection) throws(ProtocolError) {
        let contactID = try Validate.id(try request.string("contactId"), field: "contactId")
        let rules: @Sendable (inout Step, String) throws(ProtocolError) -> JSONObject
        switch request.op {
        case Op.contactsRemove:
            rules = { (step, userID) throws(ProtocolError) in try ContactRules.remove(contactID, by: userID, in: &step) }
        case Op.contactsSetRoles:
            let isResponder = try request.bool("isResponder")
            let isDependent = try request.bool("isDependent")
            rules = { (step, userID) throws(ProtocolError) in
                try ContactRules.setRoles(of: contactID, by: userID, isResponder: isResponder,
                                          isDependent: isDependent, in: &step)
            }
        case Op.pingSend:
            rules = { (step, userID) throws(ProtocolError) in try PingRules.send(to: contactID, by: userID, in: &step) }
        case Op.pingRespond:
            rules = { (step, userID) throws(ProtocolError) in try PingRules.respond(to: contactID, by: userID, in: &step) }
        default:
            rules = { (step, userID) throws(ProtocolError) in try PingRules.clear(to: contactID, by: userID, in: &step) }
        }
        step(request, on: connection, involving: .named([contactID]), rules)
    }
}
