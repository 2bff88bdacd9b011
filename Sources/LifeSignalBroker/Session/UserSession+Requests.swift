import LifeSignalEngine
import LifeSignalProtocol

extension UserSession {
    /// Entry point for every request of an authenticated device (PROTOCOL §3, §5): the engine's
    /// plan of the request, carried out on the users in memory.
    func handle(_ request: Request, from connection: ClientConnection) {
        guard !isErased else {
            return connection.cut(.accountDeleted, .deletedAccount)
        }
        guard let command = connection.deviceCommand(of: request),
              let opID = connection.operationID(of: request, changingState: command.keepsOutcome)
        else { return }
        if let opID, answeredFromKept(opID, request, from: connection) { return }
        switch RequestPlan(command, by: userID, limits: configuration.ruleLimits) {
        case .step(let involved, let rules):
            run(request, from: connection, involving: involved.contactIDs(in: contacts), rules)
        case .eraseAccount(let rules):
            // The step's erasure ends the session once answered (`performAdmitted`).
            run(request, from: connection, involving: Involved.allContacts.contactIDs(in: contacts), rules)
        case .byQRCode(let qrCode, let use):
            byQRCode(qrCode, use, request, from: connection)
        case .changeNotification(let id, let rule):
            changeNotification(id, request, from: connection, rule)
        case .readAllNotifications(let rule):
            perform(request, from: connection) { mutation in readAllNotifications(&mutation, rule) }
        case .changePushToken(let change):
            perform(request, from: connection) { (mutation) throws(ProtocolError) in
                try changePushToken(change, device: connection, &mutation)
            }
        case .linkDevice:
            let link = LinkCode.issue(for: userID, now: WallClock.nowMs())
            perform(request, from: connection) { mutation in
                mutation.changes += link.changes
                return .linkCode(link.code, expiresAt: link.expiresAt)
            }
        case .revokeDevice(let rule):
            perform(request, from: connection) { (mutation) throws(ProtocolError) in try revokeDevice(&mutation, rule) }
        case .read(.contacts):
            connection.respond(rid: request.rid, contactList)
        case .read(.devices):
            connection.respond(rid: request.rid, .devices(deviceInfos))
        case .read(.notifications(let before, let limit)):
            listNotifications(before: before, limit: limit, request, from: connection)
        }
    }
}
