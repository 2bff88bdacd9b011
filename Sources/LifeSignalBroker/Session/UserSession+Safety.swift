import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// `checkin`: the deadline moves to now + interval; if the user had been marked
    /// non-responsive, every responder hears "all clear" (§5, §8).
    func checkIn(_ request: Request, from connection: ClientConnection) {
        let userID = self.userID
        run(request, from: connection, involving: responderIDs) { (step) throws(ProtocolError) in
            try SafetyRules.checkIn(by: userID, in: &step)
        }
    }

    /// `alert.trigger`: starts an alert and tells every responder; while one is active it
    /// returns that one and changes nothing (§5).
    func triggerAlert(message: String?, _ request: Request, from connection: ClientConnection) {
        let userID = self.userID
        run(request, from: connection, involving: responderIDs) { (step) throws(ProtocolError) in
            try SafetyRules.triggerAlert(by: userID, message: message, in: &step)
        }
    }

    /// `alert.cancel`: ends the active alert and tells every responder (§5).
    func cancelAlert(_ request: Request, from connection: ClientConnection) {
        let userID = self.userID
        run(request, from: connection, involving: responderIDs) { (step) throws(ProtocolError) in
            try SafetyRules.cancelAlert(by: userID, in: &step)
        }
    }
}
