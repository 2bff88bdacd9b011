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
        var newPhone: String??
        switch phone {
        case .set(let value)?: newPhone = .some(value)
        case .clear?: newPhone = .some(nil)
        case nil: newPhone = nil
        }
        let update = ProfileUpdate(name: name, phone: newPhone, checkInIntervalSec: checkInIntervalSec,
                                   push: preferences?.push, mutedTypes: preferences?.mutedTypes)
        return try await userResult(request(.profileUpdate(update)))
    }

    /// `profile.update` of only the given preference fields.
    @discardableResult
    public func updatePreferences(push: Bool? = nil, mutedTypes: [NotificationType]? = nil) async throws -> User {
        try await userResult(request(.profileUpdate(ProfileUpdate(push: push, mutedTypes: mutedTypes))))
    }

    /// `qr.rotate`: returns the new code; the old one stops working.
    public func rotateQRCode() async throws -> String {
        let fields = try await request(.qrRotate)
        return try Self.decode { () throws(ProtocolError) in try fields.string("qrCode") }
    }

    /// `device.register`: this device's push token.
    public func registerDevice(token: String, platform: String? = nil) async throws {
        _ = try await request(.deviceRegister(token: token, platform: platform))
    }

    /// `device.unregister`: this device gets no more pushes.
    public func unregisterDevice() async throws {
        _ = try await request(.deviceUnregister)
    }

    /// `devices.list`.
    public func listDevices() async throws -> [DeviceInfo] {
        let fields = try await request(.devicesList)
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
