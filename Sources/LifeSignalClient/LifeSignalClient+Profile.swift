import LifeSignalProtocol

// Profile, QR code and push devices (PROTOCOL.md §5).
extension LifeSignalClient {
    /// `profile.update` with only the given fields; `phone: .clear` removes the phone number.
    /// `preferences` replaces both preference fields (the broker also accepts partial ones, see
    /// `updatePreferences`).
    @discardableResult
    public func updateProfile(
        name: String? = nil,
        phone: FieldChange<String>? = nil,
        checkInIntervalSec: Int64? = nil,
        preferences: Preferences? = nil
    ) async throws -> User {
        var fields: JSONObject = [:]
        if let name { fields["name"] = .string(name) }
        switch phone {
        case .set(let value)?: fields["phone"] = .string(value)
        case .clear?: fields["phone"] = .null
        case nil: break
        }
        if let checkInIntervalSec { fields["checkInIntervalSec"] = .int(checkInIntervalSec) }
        if let preferences { fields["preferences"] = preferences.json }
        return try await userResult(request(Op.profileUpdate, fields))
    }

    /// `profile.update` of only the given preference fields.
    @discardableResult
    public func updatePreferences(push: Bool? = nil, mutedTypes: [NotificationType]? = nil) async throws -> User {
        var preferences: JSONObject = [:]
        if let push { preferences["push"] = .bool(push) }
        if let mutedTypes { preferences["mutedTypes"] = .array(mutedTypes.map { .string($0.rawValue) }) }
        return try await userResult(request(Op.profileUpdate, ["preferences": .object(preferences)]))
    }

    /// `qr.rotate`: returns the new code; the old one stops working.
    public func rotateQRCode() async throws -> String {
        let fields = try await request(Op.qrRotate)
        return try Self.decode { () throws(ProtocolError) in try fields.string("qrCode") }
    }

    /// `device.register`: this device's push token.
    public func registerDevice(token: String, platform: String? = nil) async throws {
        var fields: JSONObject = ["token": .string(token)]
        if let platform { fields["platform"] = .string(platform) }
        _ = try await request(Op.deviceRegister, fields)
    }

    /// `device.unregister`: this device gets no more pushes.
    public func unregisterDevice() async throws {
        _ = try await request(Op.deviceUnregister)
    }

    /// `devices.list`.
    public func listDevices() async throws -> [DeviceInfo] {
        let fields = try await request(Op.devicesList)
        return try Self.decode { () throws(ProtocolError) in
            var devices: [DeviceInfo] = []
            for device in try fields.array("devices") { devices.append(try DeviceInfo(json: device)) }
            return devices
        }
    }

    func userResult(_ fields: JSONObject) throws(LifeSignalClientError) -> User {
        try Self.decode { () throws(ProtocolError) in
            guard let user = fields["user"] else { throw .badRequest("missing field 'user'") }
            return try User(json: user)
        }
    }
}
