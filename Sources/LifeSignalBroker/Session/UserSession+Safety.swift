import LifeSignalProtocol

extension UserSession {
    /// `checkin`: the deadline moves to now + interval; if the user had been marked
    /// non-responsive, every responder hears "all clear" (§5, §8).
    func checkIn(_ request: Request, from connection: ClientConnection) {
        perform(request, from: connection, loading: responderIDs) { session, mutation in
            session.recordCheckIn(&mutation)
        }
    }

    private func recordCheckIn(_ mutation: inout Mutation) -> JSONObject {
        let wasNonResponsive = user.isNonResponsive
        var updated = user
        updated.lastCheckInAt = mutation.now
        updated.checkInDeadline = CheckInRules.deadline(
            lastCheckInAt: mutation.now, intervalSec: updated.checkInIntervalSec, now: mutation.now)
        updated.isNonResponsive = false
        replaceUser(with: updated, &mutation)
        let responders = responderIDs
        if wasNonResponsive {
            tellEach(responders, .checkIn, "\(user.name) checked in.", into: &mutation)
        }
        return ["user": user.json]
    }

    /// `alert.trigger`: starts an alert and tells every responder; while one is active it
    /// returns that one and changes nothing (§5).
    func triggerAlert(_ request: Request, from connection: ClientConnection) {
        let message: String?
        do throws(ProtocolError) {
            message = try request.optionalString("message").map { (text) throws(ProtocolError) in
                try Validate.message(text)
            }
        } catch {
            return connection.respond(error: error, rid: request.rid)
        }
        if let active = user.alert { return connection.respond(rid: request.rid, ["alertId": .string(active.id)]) }
        perform(request, from: connection, loading: responderIDs) { session, mutation in
            session.startAlert(message: message, &mutation)
        }
    }

    private func startAlert(message: String?, _ mutation: inout Mutation) -> JSONObject {
        if let active = user.alert { return ["alertId": .string(active.id)] }
        let alert = AlertInfo(id: Credentials.newID(prefix: "a"), startedAt: mutation.now, message: message)
        var updated = user
        updated.alert = alert
        replaceUser(with: updated, &mutation)
        let responders = responderIDs
        tellEach(responders, .alert, "\(user.name) triggered an emergency alert.", alert: alert, into: &mutation)
        return ["alertId": .string(alert.id)]
    }

    /// `alert.cancel`: ends the active alert and tells every responder (§5).
    func cancelAlert(_ request: Request, from connection: ClientConnection) {
        guard user.alert != nil else {
            return connection.respond(error: .notFound("no active alert"), rid: request.rid)
        }
        perform(request, from: connection, loading: responderIDs) { (session, mutation) throws(ProtocolError) in
            try session.endAlert(&mutation)
        }
    }

    private func endAlert(_ mutation: inout Mutation) throws(ProtocolError) -> JSONObject {
        guard let alert = user.alert else { throw .notFound("no active alert") }
        var updated = user
        updated.alert = nil
        replaceUser(with: updated, &mutation)
        let responders = responderIDs
        tellEach(responders, .alertCancelled, "\(user.name) cancelled their alert.", alert: alert,
                 into: &mutation)
        return [:]
    }

    /// One notification about this user to each of `contactIDs`.
    func tellEach(_ contactIDs: Set<String>, _ type: NotificationType, _ message: String, alert: AlertInfo? = nil,
                  into mutation: inout Mutation) {
        let name = user.name
        for contactID in contactIDs {
            session(of: contactID)?.assumeIsolated { contact in
                let role = contact.contacts[userID]?.role ?? .none
                contact.notify(type, message, about: userID, named: name, role: role, alert: alert,
                               into: &mutation)
            }
        }
    }
}
