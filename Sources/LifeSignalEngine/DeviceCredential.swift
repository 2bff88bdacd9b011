/// A device's own credential (PROTOCOL §12): the hash of the token it says hello with (valid only
/// with its own device id), and when it was linked.
public struct DeviceCredential: Sendable, Equatable {
    public var key: DeviceKey
    public var tokenHash: [UInt8]
    public var linkedAt: Int64

    public init(key: DeviceKey, tokenHash: [UInt8], linkedAt: Int64) {
        self.key = key
        self.tokenHash = tokenHash
        self.linkedAt = linkedAt
    }
}

/// A one-time code that links a new device to `userID`'s account until `expiresAt` (§12).
public struct LinkCode: Sendable, Equatable {
    public var code: String
    public var userID: String
    public var expiresAt: Int64

    public init(code: String, userID: String, expiresAt: Int64) {
        self.code = code
        self.userID = userID
        self.expiresAt = expiresAt
    }
}

/// A link code that was unknown, spent or expired when a commit tried to spend it: the commit
/// changed nothing.
public struct LinkCodeNotValid: Error, Equatable {
    public let code: String
    public init(code: String) { self.code = code }
}

extension LinkCode {
    /// How long a code links a device (§12).
    public static let validityMs: Int64 = 5 * 60 * 1000

    /// A new code for `userID`: 8 characters of `[A-Z2-9]` without 0, O, 1 and I, valid 5 minutes.
    public static func issue(for userID: String, now: Int64) -> LinkCode {
        let code = String(decoding: Credentials.randomBytes(8).map { Credentials.qrAlphabet[Int($0) & 31] }, as: UTF8.self)
        return LinkCode(code: code, userID: userID, expiresAt: now + validityMs)
    }

    /// What `device.link` commits: the code, and the user's expired ones forgotten.
    public var changes: [StoreChange] { [.pruneLinkCodes(now: expiresAt - Self.validityMs), .createLinkCode(self)] }
}
