import LifeSignalProtocol

/// What a QR code leads to (§5; `qr.lookup`, §12): the owner is looked up before anything else.
public enum QRCodeRules {
    /// A code nobody has (any more): counted as a failed add (§10).
    public static let unknown = ProtocolError.notFound("no user has that QR code")
    /// The user's own code.
    public static let own = ProtocolError.badRequest("that is your own QR code")

    /// `qr.lookup`: whose code it is, without adding anyone, so an app can ask "Add Bob?".
    public static func lookUp(_ owner: QRCodeOwner, by userID: String) throws(ProtocolError) -> Reply {
        guard owner.id != userID else { throw own }
        return .qrCodeOwner(owner)
    }
}
