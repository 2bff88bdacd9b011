import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// `ping.send`: a responder pings one of their dependents (§5).
    func sendPing(to contactID: String, _ request: Request, from connection: ClientConnection) {
        withContact(contactID, request, from: connection) { (step, userID, contactID) throws(ProtocolError) in
            try PingRules.send(to: contactID, by: userID, in: &step)
        }
    }

    /// `ping.respond`: the dependent answers a pending ping; the pinger is told (§5).
    func respondToPing(from contactID: String, _ request: Request, from connection: ClientConnection) {
        withContact(contactID, request, from: connection) { (step, userID, contactID) throws(ProtocolError) in
            try PingRules.respond(to: contactID, by: userID, in: &step)
        }
    }

    /// `ping.clear`: the pinger withdraws their pending ping; nobody is notified (§5).
    func clearPing(to contactID: String, _ request: Request, from connection: ClientConnection) {
        withContact(contactID, request, from: connection) { (step, userID, contactID) throws(ProtocolError) in
            try PingRules.clear(to: contactID, by: userID, in: &step)
        }
    }
}
