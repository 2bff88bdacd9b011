import Crypto
import Foundation
import _CryptoExtras

/// The signed JWT a service account trades for an access token (RFC 7523; Google's
/// "OAuth 2.0 for server to server applications"): RS256 over `header.claims`.
package enum FCMAssertion {
    package static let scope = "https://www.googleapis.com/auth/firebase.messaging"
    /// Google accepts at most an hour.
    package static let lifetimeSeconds: Int64 = 3600

    package struct Header: Codable, Equatable {
        var alg = "RS256"
        var typ = "JWT"
    }

    package struct Claims: Codable, Equatable {
        let iss: String
        let scope: String
        let aud: String
        let iat: Int64
        let exp: Int64
    }

    package static func claims(for account: FCMServiceAccount, issuedAt: Int64) -> Claims {
        Claims(iss: account.clientEmail, scope: scope, aud: account.tokenURI, iat: issuedAt,
               exp: issuedAt + lifetimeSeconds)
    }

    /// `base64url(header).base64url(claims).base64url(RSASSA-PKCS1-v1_5 SHA-256 signature)`.
    package static func signed(for account: FCMServiceAccount, issuedAt: Int64) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let header = Base64URL.encode(try encoder.encode(Header()))
        let claims = Base64URL.encode(try encoder.encode(claims(for: account, issuedAt: issuedAt)))
        let signingInput = "\(header).\(claims)"
        // RS256 is PKCS#1 v1.5 padding, which _CryptoExtras names "insecure" only to steer new designs to PSS.
        let signature = try account.signingKey.signature(
            for: SHA256.hash(data: Data(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return "\(signingInput).\(Base64URL.encode(signature.rawRepresentation))"
    }
}
