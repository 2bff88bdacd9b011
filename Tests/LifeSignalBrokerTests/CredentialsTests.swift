@testable import LifeSignalBroker
import Testing

@Suite struct CredentialsTests {
    @Test func aTokenVerifiesOnlyAgainstItsOwnHash() {
        let token = Credentials.newToken()
        let hash = Credentials.hash(token: token)
        #expect(Credentials.verify(token: token, against: hash))
        #expect(!Credentials.verify(token: token + "x", against: hash))
        #expect(!Credentials.verify(token: Credentials.newToken(), against: hash))
        #expect(!Credentials.verify(token: token, against: []))
    }

    @Test func secretsAreFreshEachTime() {
        let tokens = Set((0..<1_000).map { _ in Credentials.newToken() })
        #expect(tokens.count == 1_000)
        #expect(tokens.allSatisfy { $0.count == 52 })
    }

    @Test func idsAndCodesHaveTheirShape() {
        let id = Credentials.newUserID()
        #expect(id.hasPrefix("u_") && id.count <= 64)
        let qr = Credentials.newQRCode()
        #expect(qr.count == 12)
        #expect(qr.allSatisfy { "ABCDEFGHJKLMNPQRSTUVWXYZ23456789".contains($0) })
    }
}
