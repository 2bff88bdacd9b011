import LifeSignalClient
import LifeSignalProtocol

/// Finds the contact a person means by CONTACT: their user id, or their name in any case, as this
/// device knows them once caught up. Anything else is refused here, with the candidates, rather
/// than sent to the broker to come back as a bare `not_found`.
enum ContactResolver {
    static func resolve(_ query: String, in state: DeviceState?) throws(CLIError) -> Contact {
        let contacts = state?.sortedContacts ?? []
        if let contact = contacts.first(where: { $0.id == query }) { return contact }
        let wanted = query.lowercased()
        let named = contacts.filter { $0.name.lowercased() == wanted }
        if named.count == 1 { return named[0] }
        if named.count > 1 {
            throw .local("'\(query)' matches \(named.count) contacts: \(list(named)); use the id")
        }
        if contacts.isEmpty {
            throw .local("no contact '\(query)': you have no contacts (add one with: lsclient contacts add QRCODE)")
        }
        throw .local("no contact '\(query)'; your contacts: \(list(contacts))")
    }

    /// `Bob (u_…), Carol (u_…)`.
    private static func list(_ contacts: [Contact]) -> String {
        contacts.map { "\($0.name) (\($0.id))" }.joined(separator: ", ")
    }
}
