/// Whether a `hello`'s token lets a device in (PROTOCOL §3, §12): the account's token for any of
/// the user's devices, a device's own token only with its own device id. Both hashes are
/// compared whatever the first says, so a right and a wrong token cost the same work.
package enum HelloCredential {
    package static func admits(token: String, accountHash: TokenHash?, deviceHash: TokenHash?) -> Bool {
        let account = Credentials.verify(token: token, against: accountHash)
        let device = Credentials.verify(token: token, against: deviceHash ?? noDeviceHash)
        return account || (deviceHash != nil && device)
    }

    /// Compared against when the device has no credential: no token hashes to it.
    private static let noDeviceHash = TokenHash([UInt8](repeating: 0, count: 32))
}
