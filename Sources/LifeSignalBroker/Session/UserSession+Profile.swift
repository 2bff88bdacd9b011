import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// `profile.update`: every contact may see the change (a name to all), so all are loaded.
    func updateProfile(_ change: ProfileUpdate, _ request: Request, from connection: ClientConnection) {
        let (userID, minimum) = (self.userID, configuration.minCheckInIntervalSec)
        run(request, from: connection, involving: Set(contacts.keys)) { (step) throws(ProtocolError) in
            try ProfileRules.update(by: userID, change, minCheckInIntervalSec: minimum, in: &step)
        }
    }

    /// `qr.rotate`: the old code stops working the moment this commits. Only a contact's own
    /// document changes, which no contact's view shows.
    func rotateQRCode(_ request: Request, from connection: ClientConnection) {
        let userID = self.userID
        run(request, from: connection) { (step) throws(ProtocolError) in
            try ProfileRules.rotateQRCode(of: userID, in: &step)
        }
    }
}
