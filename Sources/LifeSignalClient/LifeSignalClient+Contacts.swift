import LifeSignalProtocol

// Contacts and pings (PROTOCOL.md §5).
extension LifeSignalClient {
    /// `contacts.add`: the owner of `qrCode` becomes a contact with these roles (as seen from here).
    @discardableResult
    public func addContact(qrCode: String, isResponder: Bool, isDependent: Bool) async throws -> Contact {
        let fields = try await request(.contactsAdd(qrCode: qrCode, isResponder: isResponder, isDependent: isDependent))
        return try contactResult(fields)
    }

    /// `qr.lookup` (v1.2): whose code `qrCode` is, without adding anyone. An unknown code is
    /// `not_found` and counts against the broker's failed-adds quota, as a failed `addContact` does.
    public func lookUpQRCode(_ qrCode: String) async throws -> QRCodeOwner {
        let fields = try await request(.qrLookup(qrCode: qrCode))
        return try Self.decode { () throws(ProtocolError) in try QRCodeOwner(json: .object(try fields.object("contact"))) }
    }

    /// `contacts.remove`.
    public func removeContact(id: String) async throws {
        _ = try await request(.contactsRemove(contactID: id))
    }

    /// `contacts.setRoles`.
    @discardableResult
    public func setContactRoles(id: String, isResponder: Bool, isDependent: Bool) async throws -> Contact {
        let fields = try await request(.contactsSetRoles(contactID: id, isResponder: isResponder,
                                                         isDependent: isDependent))
        return try contactResult(fields)
    }

    /// `contacts.list`.
    public func listContacts() async throws -> [Contact] {
        let fields = try await request(.contactsList)
        return try Self.decode { () throws(ProtocolError) in
            var contacts: [Contact] = []
            for contact in try fields.array("contacts") { contacts.append(try Contact(json: contact)) }
            return contacts
        }
    }

    /// `ping.send` to a dependent; returns the ping id.
    @discardableResult
    public func sendPing(to contactID: String) async throws -> String {
        let fields = try await request(.pingSend(contactID: contactID))
        return try Self.decode { () throws(ProtocolError) in try fields.string("pingId") }
    }

    /// `ping.respond` to the pending ping from `contactID`.
    public func respondToPing(from contactID: String) async throws {
        _ = try await request(.pingRespond(contactID: contactID))
    }

    /// `ping.clear`: withdraws this user's pending ping to `contactID`.
    public func clearPing(to contactID: String) async throws {
        _ = try await request(.pingClear(contactID: contactID))
    }

    private func contactResult(_ fields: JSONObject) throws(LifeSignalClientError) -> Contact {
        try Self.decode { () throws(ProtocolError) in
            guard let contact = fields["contact"] else { throw .badRequest("missing field 'contact'") }
            return try Contact(json: contact)
        }
    }
}
