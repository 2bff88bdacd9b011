import LifeSignalProtocol

extension UserSession {
    /// `profile.update`: every given field is validated before any is applied.
    func updateProfile(_ request: Request, _ mutation: inout Mutation) throws(ProtocolError) -> JSONObject {
        var updated = user
        if let name = try request.optionalString("name") { updated.name = try Validate.name(name) }
        if request.has("phone") {
            updated.phone = try request.optionalString("phone").map { (phone) throws(ProtocolError) in
                try Validate.phone(phone)
            }
        }
        if let interval = try request.optionalInt("checkInIntervalSec") {
            updated.checkInIntervalSec = try Validate.checkInInterval(
                interval, minimum: configuration.minCheckInIntervalSec)
            updated.checkInDeadline = CheckInRules.deadline(
                lastCheckInAt: updated.lastCheckInAt, intervalSec: updated.checkInIntervalSec, now: mutation.now)
        }
        if let preferences = try request.optionalObject("preferences") {
            updated.preferences = try Self.preferences(preferences, applyingTo: updated.preferences)
        }
        if updated != user { replaceUser(with: updated, &mutation) }
        return ["user": user.json]
    }

    /// `qr.rotate`: the old code stops working the moment this commits.
    func rotateQRCode(_ mutation: inout Mutation) -> JSONObject {
        var updated = user
        updated.qrCode = Credentials.newQRCode()
        replaceUser(with: updated, &mutation)
        return ["qrCode": .string(user.qrCode)]
    }

    /// Stores the new user document, tells the user's devices (`user.updated`) and shows the
    /// change to every contact whose view of this user changed (`contact.updated`), in one step:
    /// no rule can change the document and forget the views made of it.
    func replaceUser(with updated: User, _ mutation: inout Mutation) {
        if updated.checkInDeadline != user.checkInDeadline || updated.isNonResponsive != user.isNonResponsive {
            broker.assumeIsolated { $0.deadlineChanged(for: updated) }
        }
        let before = ContactMirror(of: user)
        user = updated
        mutation.changes.append(.updateUser(updated))
        emit(EventName.userUpdated, ["user": updated.json], into: &mutation)
        showChange(from: before, to: ContactMirror(of: updated), into: &mutation)
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
