import LifeSignalProtocol

/// `profile.update` and `qr.rotate` (§5). A profile change is shown to every contact whose view
/// changed, so every contact must be in the step.
public enum ProfileRules {
    /// Every given field is validated before any is applied.
    public static func update(by userID: String, _ request: Request, minCheckInIntervalSec: Int64,
                       in step: inout Step) throws(ProtocolError) -> JSONObject {
        let current = try step.account(userID).user
        var updated = current
        if let name = try request.optionalString("name") { updated.name = try Validate.name(name) }
        if request.has("phone") {
            updated.phone = try request.optionalString("phone").map { (phone) throws(ProtocolError) in
                try Validate.phone(phone)
            }
        }
        if let interval = try request.optionalInt("checkInIntervalSec") {
            updated.checkInIntervalSec = try Validate.checkInInterval(interval, minimum: minCheckInIntervalSec)
            updated.checkInDeadline = CheckInRules.deadline(
                lastCheckInAt: updated.lastCheckInAt, intervalSec: updated.checkInIntervalSec, now: step.now)
        }
        if let preferences = try request.optionalObject("preferences") {
            updated.preferences = try Self.preferences(preferences, applyingTo: updated.preferences)
        }
        if updated != current { step.replaceUser(updated) }
        return ["user": updated.json]
    }

    /// The old code stops working the moment this commits.
    public static func rotateQRCode(of userID: String, in step: inout Step) throws(ProtocolError) -> JSONObject {
        var user = try step.account(userID).user
        user.qrCode = step.ids.newQRCode()
        step.replaceUser(user)
        return ["qrCode": .string(user.qrCode)]
    }

    private static func preferences(_ fields: JSONObject, applyingTo current: Preferences) throws(ProtocolError)
        -> Preferences
    {
        var result = current
        if let push = fields["push"] {
            guard let value = push.boolValue else { throw .badRequest("field 'preferences.push' must be a boolean") }
            result.push = value
        }
        if let muted = fields["mutedTypes"] {
            guard let items = muted.arrayValue else {
                throw .badRequest("field 'preferences.mutedTypes' must be an array of notification types")
            }
            var types: [NotificationType] = []
            for item in items {
                guard let type = item.stringValue.flatMap(NotificationType.init(rawValue:)) else {
                    throw .badRequest("field 'preferences.mutedTypes' has an unknown notification type")
                }
                if !types.contains(type) { types.append(type) }
            }
            result.mutedTypes = types
        }
        return result
    }
}
