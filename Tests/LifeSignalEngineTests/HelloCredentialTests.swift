@testable import LifeSignalEngine
import Testing

/// §3, §12: the account's token lets any device in, a device's own token only its device.
@Suite struct HelloCredentialTests {
    static func hash(_ token: String) -> TokenHash? { TokenHash(Credentials.hash(token: token)) }

    @Test func theAccountTokenForAnyDeviceADeviceTokenForItsOwn() {
        let (account, tablet) = (Self.hash("account"), Self.hash("tablet"))
        #expect(HelloCredential.admits(token: "account", accountHash: account, deviceHash: nil))
        #expect(HelloCredential.admits(token: "account", accountHash: account, deviceHash: tablet))
        #expect(HelloCredential.admits(token: "tablet", accountHash: account, deviceHash: tablet))
        // The tablet's token said by a device whose credential is another, or none.
        #expect(!HelloCredential.admits(token: "tablet", accountHash: account, deviceHash: Self.hash("phone")))
        #expect(!HelloCredential.admits(token: "tablet", accountHash: account, deviceHash: nil))
        #expect(!HelloCredential.admits(token: "wrong", accountHash: account, deviceHash: tablet))
        // A malformed stored hash matches nothing.
        #expect(!HelloCredential.admits(token: "account", accountHash: nil, deviceHash: nil))
    }
}
