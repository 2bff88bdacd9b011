import LifeSignalProtocol

/// Check-ins, missed deadlines and alerts (§5, §8). Every responder must be in the step.
public enum SafetyRules {
    /// The deadline moves to now + interval; a user who was non-responsive is all clear again.
    public static func checkIn(by userID: String, in step: inout Step) throws(ProtocolError) -> Reply {
        var user = try step.loadedUser(userID)
        let wasNonResponsive = user.isNonResponsive
        user.lastCheckInAt = step.now
        user.checkInDeadline = CheckInRules.deadline(
            lastCheckInAt: step.now, intervalSec: user.checkInIntervalSec, now: step.now)
        user.isNonResponsive = false
        step.replaceUser(user)
        if wasNonResponsive { step.notifyResponders(of: userID, .checkIn, "\(user.name) checked in.") }
        return .user(user)
    }

    /// The deadline passed without a check-in: non-responsive, and every responder is told once.
    /// False (and nothing changed) if the deadline moved or already fired.
    public static func missedCheckIn(of userID: String, deadline: Int64, in step: inout Step) throws(ProtocolError)
        -> Bool
    {
        var user = try step.loadedUser(userID)
        guard user.checkInDeadline == deadline, !user.isNonResponsive, deadline <= step.now else { return false }
        user.isNonResponsive = true
        step.replaceUser(user)
        step.notifyResponders(of: userID, .nonResponsive, "\(user.name) missed their check-in.")
        return true
    }

    /// Starts an alert; while one is active it returns that one and changes nothing.
    public static func triggerAlert(by userID: String, message: String?, in step: inout Step) throws(ProtocolError)
        -> Reply
    {
        var user = try step.loadedUser(userID)
        if let active = user.alert { return .alert(id: active.id) }
        let alert = AlertInfo(id: step.newID(prefix: "a"), startedAt: step.now, message: message)
        user.alert = alert
        step.replaceUser(user)
        step.notifyResponders(of: userID, .alert, "\(user.name) triggered an emergency alert.", alert: alert)
        return .alert(id: alert.id)
    }

    public static func cancelAlert(by userID: String, in step: inout Step) throws(ProtocolError) -> Reply {
        var user = try step.loadedUser(userID)
        guard let alert = user.alert else { throw .notFound("no active alert") }
        user.alert = nil
        step.replaceUser(user)
        step.notifyResponders(of: userID, .alertCancelled, "\(user.name) cancelled their alert.", alert: alert)
        return .empty
    }
}
