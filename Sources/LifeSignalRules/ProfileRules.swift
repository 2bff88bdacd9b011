import LifeSignalProtocol

/// `profile.update` and `qr.rotate` (§5). A profile change is shown to every contact whose view
/// changed, so every contact must be in the step.
public enum ProfileRules {
    /// Every given field was validated when the request was read; the interval is checked here
    /// against the broker's minimum before anything is applied.
    public static func update(by userID: String, _ change: ProfileUpdate, minCheckInIntervalSec: Int64,
                              in step: inout Step) throws(ProtocolError) -> Reply {
        let current = try step.loadedUser(userID)
        var updated = current
        if let name = change.name { updated.name = name }
        if let phone = change.phone { updated.phone = phone }
        if let interval = change.checkInIntervalSec {
            updated.checkInIntervalSec = try Validate.checkInInterval(interval, minimum: minCheckInIntervalSec)
            updated.checkInDeadline = CheckInRules.deadline(
                lastCheckInAt: updated.lastCheckInAt, intervalSec: updated.checkInIntervalSec, now: step.now)
        }
        updated.preferences = change.applied(to: updated.preferences)
        if updated != current { step.replaceUser(updated) }
        return .user(updated)
    }

    /// The old code stops working the moment this commits.
    public static func rotateQRCode(of userID: String, in step: inout Step) throws(ProtocolError) -> Reply {
        var user = try step.loadedUser(userID)
        user.qrCode = step.ids.newQRCode()
        step.replaceUser(user)
        return .qrCode(user.qrCode)
    }
}
