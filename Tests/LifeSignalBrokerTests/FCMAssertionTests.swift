import Crypto
import Foundation
@testable import LifeSignalBroker
@testable import LifeSignalPush
import Testing
import _CryptoExtras

/// The JWT a service account trades for an access token: header, claims and an RS256 signature
/// that the account's public key verifies.
@Suite struct FCMAssertionTests {
    let key: _RSA.Signing.PrivateKey
    let account: FCMServiceAccount

    init() throws {
        key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        account = try FCMServiceAccount(json: Self.keyFile(privateKey: key.pkcs8PEMRepresentation))
    }

    static func keyFile(privateKey: String, type: String = "service_account", tokenURI: String = "https://oauth2.example/token") -> Data {
        try! JSONSerialization.data(withJSONObject: [
            "type": type, "project_id": "demo-project", "private_key_id": "k1", "private_key": privateKey,
            "client_email": "sender@demo-project.iam.gserviceaccount.com", "token_uri": tokenURI,
        ])
    }

    private func parts(_ jwt: String) throws -> (header: [String: Any], claims: [String: Any], signingInput: String, signature: Data) {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        try #require(parts.count == 3)
        func object(_ part: Substring) throws -> [String: Any] {
            let data = try #require(Base64URL.decode(part))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        return (try object(parts[0]), try object(parts[1]), "\(parts[0]).\(parts[1])", try #require(Base64URL.decode(parts[2])))
    }

    @Test func theAssertionCarriesGooglesClaimsAndVerifiesWithThePublicKey() throws {
        let jwt = try FCMAssertion.signed(for: account, issuedAt: 1_700_000_000)
        #expect(!jwt.contains("=") && !jwt.contains("+") && !jwt.contains("/"))  // base64url, unpadded
        let (header, claims, signingInput, signature) = try parts(jwt)
        #expect(header as? [String: String] == ["alg": "RS256", "typ": "JWT"])
        #expect(claims["iss"] as? String == "sender@demo-project.iam.gserviceaccount.com")
        #expect(claims["scope"] as? String == "https://www.googleapis.com/auth/firebase.messaging")
        #expect(claims["aud"] as? String == "https://oauth2.example/token")
        #expect(claims["iat"] as? Int == 1_700_000_000)
        #expect(claims["exp"] as? Int == 1_700_003_600)
        #expect(claims.count == 5)
        let rsaSignature = _RSA.Signing.RSASignature(rawRepresentation: signature)
        #expect(key.publicKey.isValidSignature(rsaSignature, for: SHA256.hash(data: Data(signingInput.utf8)),
                                               padding: .insecurePKCS1v1_5))
        // Another key does not verify it: the signature is the account's.
        let other = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        #expect(!other.publicKey.isValidSignature(rsaSignature, for: SHA256.hash(data: Data(signingInput.utf8)),
                                                  padding: .insecurePKCS1v1_5))
    }

    @Test func aPKCS1KeyIsAcceptedToo() throws {
        let pkcs1 = try FCMServiceAccount(json: Self.keyFile(privateKey: key.pemRepresentation))
        #expect(pkcs1.projectID == "demo-project")
        #expect(pkcs1.tokenURI == "https://oauth2.example/token")
    }

    @Test func aBadKeyFileSaysWhatIsWrongWithoutTheKey() {
        func failure(_ data: Data) -> String {
            do {
                _ = try FCMServiceAccount(json: data)
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(failure(Data("not json".utf8)).contains("not a service account"))
        #expect(failure(Self.keyFile(privateKey: key.pkcs8PEMRepresentation, type: "authorized_user")).contains("type"))
        #expect(failure(Self.keyFile(privateKey: "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----"))
            .contains("private_key"))
        #expect(failure(Self.keyFile(privateKey: key.pkcs8PEMRepresentation, tokenURI: "ftp://x")).contains("token_uri"))
        let missing = failure(try! JSONSerialization.data(withJSONObject: ["type": "service_account"]))
        #expect(missing.contains("project_id is missing"))
        #expect(throws: FCMServiceAccount.Invalid.self) { try FCMServiceAccount(contentsOf: "/nonexistent/key.json") }
    }

    @Test func theFormBodyEscapesTheGrantType() {
        #expect(FormBody.encode([("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"), ("assertion", "a.b-c_d")])
            == "grant_type=urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer&assertion=a.b-c_d")
    }

    @Test func theEndpointIsCheckedAndTheSendURLNamesTheProject() throws {
        let settings = try FCMSettings(serviceAccount: account, endpoint: "http://127.0.0.1:8080/",
                                       allowsPlainHTTP: true)
        #expect(settings.sendURL == "http://127.0.0.1:8080/v1/projects/demo-project/messages:send")
        // Plain http only where a test allows it (a local fake).
        #expect(throws: (any Error).self) { try FCMSettings(serviceAccount: account, endpoint: "http://127.0.0.1:8080/") }
        #expect(try FCMSettings(serviceAccount: account).sendURL
            == "https://fcm.googleapis.com/v1/projects/demo-project/messages:send")
        #expect(throws: FCMServiceAccount.Invalid.self) { try FCMSettings(serviceAccount: account, endpoint: "fcm.googleapis.com") }
    }
}
