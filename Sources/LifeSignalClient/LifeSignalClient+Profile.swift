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
        return try await updateProfile(ProfileUpdate(name: name, phone: newPhone, checkInIntervalSec: checkInIntervalSec,
                                                     push: preferences?.push, mutedTypes: preferences?.mutedTypes))
    }

    /// `profile.update` with the fields `update` gives; returns the user as it now is.
    @discardableResult
    public func updateProfile(_ update: ProfileUpdate) async throws -> User {
        try await reply(.profileUpdate(update), \.user)
    }

    /// `profile.update` of only the given preference fields.
    @discardableResult
    public func updatePreferences(push: Bool? = nil, mutedTypes: [NotificationType]? = nil) async throws -> User {
        try await updateProfile(ProfileUpdate(push: push, mutedTypes: mutedTypes))
    }

    /// `qr.rotate`: returns the new code; the old one stops working.
    public func rotateQRCode() async throws -> String {
        try await reply(.qrRotate) { if case .qrCode(let code) = $0 { code } else { nil } }
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
        try await reply(.devicesList) { if case .devices(let devices) = $0 { devices } else { nil } }
    }
}
