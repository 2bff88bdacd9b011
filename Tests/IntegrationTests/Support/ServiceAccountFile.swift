import _CryptoExtras
import Foundation

/// A Google service account key file made for one test: a fresh RSA key, whose public half the
/// fake token endpoint checks assertions with, and a `token_uri` pointing at that fake.
struct ServiceAccountFile {
    static let projectID = "lifesignal-test"
    static let clientEmail = "lsbroker@lifesignal-test.iam.gserviceaccount.com"

    let directory = TemporaryDirectory("fcm-account")
    let publicKey: _RSA.Signing.PublicKey
    let tokenURI: String
    var path: String { directory.url.appendingPathComponent("service-account.json").path }

    init(tokenURI: String) throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        publicKey = key.publicKey
        self.tokenURI = tokenURI
        // Google's layout, PKCS#8 key and all; fields the broker does not use are there too.
        let file: [String: String] = [
            "type": "service_account", "project_id": Self.projectID, "private_key_id": "0123456789abcdef",
            "private_key": key.pkcs8PEMRepresentation, "client_email": Self.clientEmail, "client_id": "1234567890",
            "auth_uri": "https://accounts.google.com/o/oauth2/auth", "token_uri": tokenURI,
        ]
        try JSONSerialization.data(withJSONObject: file, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        // As an operator must keep it: the broker refuses a key others can read.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path)
    }
}
