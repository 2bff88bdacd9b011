import LifeSignalProtocol

extension Person {
    /// Asks to add `other` as a responder and returns the answer, whatever it is.
    func tryToAdd(_ other: Person) -> ServerMessage? {
        request(Op.contactsAdd, ["qrCode": .string(other.qrCode), "isResponder": true, "isDependent": false])
    }
}
