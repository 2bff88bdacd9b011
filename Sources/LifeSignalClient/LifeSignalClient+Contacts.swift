import LifeSignalProtocol

// Contacts and pings (PROTOCOL.md §5).
extension LifeSignalClient {
    /// `contacts.add`: the owner of `qrCode` becomes a contact with these roles (as seen from here).
    @discardableResult
    public func addContact(qrCode: String, isResponder: Bool, isDependent: Bool) async throws -> Contact {
        try await reply(.contactsAdd(qrCode: qrCode, isResponder: isResponder, isDependent: isDependent), \.contact)
    }

    /// `qr.lookup` (v1.2): whose code `qrCode` is, without adding anyone. An unknown code is
    /// `not_found` and counts against the broker's failed-adds quota, as a failed `addContact` does.
    public func lookUpQRCode(_ qrCode: String) async throws -> QRCodeOwner {
        try await reply(.qrLookup(qrCode: qrCode)) { if case .qrCodeOwner(let owner) = $0 { owner } else { nil } }
    }

    /// `contacts.remove`.
    public func removeContact(id: String) async throws {
        _ = try await request(.contactsRemove(contactID: id))
    }

    /// `contacts.setRoles`.
    @discardableResult
    public func setContactRoles(id: String, isResponder: Bool, isDependent: Bool) async throws -> Contact {
        try await reply(.contactsSetRoles(contactID: id, isResponder: isResponder, isDependent: isDependent), \.contact)
    }

    /// `contacts.list`.
    public func listContacts() async throws -> [Contact] {
        try await reply(.contactsList) { if case .contacts(let contacts) = $0 { contacts } else { nil } }
    }

    /// `ping.send` to a dependent; returns the ping id.
    @discardableResult
    public func sendPing(to contactID: String) async throws -> String {
        try await reply(.pingSend(contactID: contactID)) { if case .ping(let id) = $0 { id } else { nil } }
    }

    /// `ping.respond` to the pending ping from `contactID`.
    public func respondToPing(from contactID: String) async throws {
        _ = try await request(.pingRespond(contactID: contactID))
    }

    /// `ping.clear`: withdraws this user's pending ping to `contactID`.
    public func clearPing(to contactID: String) async throws {
        _ = try await request(.pingClear(contactID: contactID))
    }
}
