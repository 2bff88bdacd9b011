import Foundation
import _CryptoExtras

/// A Google service account as its JSON key file gives it: who the broker is to Google's token
/// endpoint, and the key it signs its token requests with.
public struct FCMServiceAccount: Sendable {
    public let projectID: String
    public let clientEmail: String
    /// Where access tokens are asked for (`token_uri`).
    public let tokenURI: String
    package let signingKey: _RSA.Signing.PrivateKey

    /// Why a key file cannot be used; says which field, never the key itself.
    public struct Invalid: Error, CustomStringConvertible {
        public let description: String
    }

    /// The fields of the key file that the broker uses; the others (key ids, cert urls) are ignored.
    private struct KeyFile: Decodable {
        let type: String?
        let project_id: String?
        let private_key: String?
        let client_email: String?
        let token_uri: String?
    }

    /// Reads the key file, which must be readable by its owner only (0600 or 0400): the key can
    /// push to every installation of the app.
    public init(contentsOf path: String) throws {
        let data: Data
        do {
            let mode = (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?
                .uint16Value ?? 0
            guard mode & 0o077 == 0 else {
                throw Invalid(description: """
                    the FCM service account file \(path) is mode \(String(mode & 0o777, radix: 8)): \
                    anyone who can read it can push to every user; chmod 600 it (readable by the broker's user only)
                    """)
            }
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch let invalid as Invalid {
            throw invalid
        } catch {
            throw Invalid(
                description: "cannot read the FCM service account file \(path): \(error.localizedDescription)")
        }
        do {
            try self.init(json: data)
        } catch let invalid as Invalid {
            throw Invalid(description: "FCM service account file \(path): \(invalid.description)")
        }
    }

    public init(json: Data) throws {
        let file: KeyFile
        do {
            file = try JSONDecoder().decode(KeyFile.self, from: json)
        } catch {
            throw Invalid(description: "not a service account JSON key")
        }
        func field(_ value: String?, _ name: String) throws -> String {
            guard let value, !value.isEmpty else { throw Invalid(description: "\(name) is missing") }
            return value
        }
        guard file.type == "service_account" else {
            throw Invalid(description: "type is \(file.type.map { "'\($0)'" } ?? "missing"), not 'service_account'")
        }
        projectID = try field(file.project_id, "project_id")
        clientEmail = try field(file.client_email, "client_email")
        tokenURI = try field(file.token_uri, "token_uri")
        guard let scheme = URL(string: tokenURI)?.scheme, scheme == "https" || scheme == "http" else {
            throw Invalid(description: "token_uri is not an http(s) URL")
        }
        do {
            signingKey = try _RSA.Signing.PrivateKey(pemRepresentation: try field(file.private_key, "private_key"))
        } catch let invalid as Invalid {
            throw invalid
        } catch {
            throw Invalid(description: "private_key is not an RSA private key in PEM")
        }
    }
}
