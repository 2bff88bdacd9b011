import LifeSignalProtocol

/// `account.delete` (§12): the user and everything of theirs go; every contact is told.
public enum AccountRules {
    /// `confirm` must be the user's current name. Each contact loses their side of the
    /// relationship (and any ping between them) with `contact.removed` and a `removed`
    /// notification; the user's own rows are erased whole, with no event to their devices, which
    /// the executor closes with `account_deleted` once this is stored.
    public static func delete(_ userID: String, confirm: String, in step: inout Step) throws(ProtocolError) -> Reply {
        let me = try step.account(userID)
        guard confirm == me.user.name else {
            throw .badRequest("field 'confirm' must be the account's current name")
        }
        for contactID in me.contacts.keys.sorted() where step.accounts[contactID] != nil {
            step.drop(userID, of: contactID)
            step.notify(contactID, .removed, "\(me.user.name) deleted their account.", about: userID)
        }
        step.erase(userID)
        return .empty
    }
}
