import _CryptoExtras
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import LifeSignalProtocol
import LifeSignalUV

/// How the fake answers, checking each request as Google would (and more strictly: what it does
/// not like goes into `problems`, which every test expects empty).
extension FakeFCM {
    static func answerTokenRequest(_ request: Request, state: Locked<State>) async throws -> Response {
        var request = request
        let body = String(buffer: try await request.collectBody(upTo: 1 << 20))
        var problems: [String] = []
        if request.headers[.contentType]?.hasPrefix("application/x-www-form-urlencoded") != true {
            problems.append("token request content type \(request.headers[.contentType] ?? "none")")
        }
        let form = Self.form(body)
        if form["grant_type"] != "urn:ietf:params:oauth:grant-type:jwt-bearer" {
            problems.append("grant_type \(form["grant_type"] ?? "missing")")
        }
        let (key, tokenURI) = state.withLock { ($0.trustedKey, $0.tokenURI) }
        problems += Self.assertionProblems(form["assertion"], tokenURI: tokenURI, key: key)
        return state.withLock { state in
            state.tokenRequests += 1
            state.problems += problems
            if state.refuseTokens {
                state.tokenRefusals += 1
                return json(401, #"{"error": "invalid_grant", "error_description": "Invalid JWT Signature."}"#)
            }
            let accessToken = "ya29.fake-\(state.tokenRequests)"
            state.issued.insert(accessToken)
            return json(200, #"{"access_token": "\#(accessToken)", "expires_in": \#(state.expiresIn), "token_type": "Bearer"}"#)
        }
    }

    /// RS256 with the test's key; the claims Google requires for FCM.
    static func assertionProblems(_ assertion: String?, tokenURI: String, key: _RSA.Signing.PublicKey?) -> [String] {
        guard let parts = assertion?.split(separator: ".", omittingEmptySubsequences: false), parts.count == 3,
              let header = decodeBase64URL(parts[0]).flatMap({ try? JSONValue.parse(Array($0)).objectValue }),
              let claims = decodeBase64URL(parts[1]).flatMap({ try? JSONValue.parse(Array($0)).objectValue }),
              let signature = decodeBase64URL(parts[2])
        else { return ["assertion is not a JWT"] }
        var problems: [String] = []
        if header["alg"]?.stringValue != "RS256" || header["typ"]?.stringValue != "JWT" { problems.append("JWT header \(header)") }
        if claims["iss"]?.stringValue != ServiceAccountFile.clientEmail { problems.append("iss \(String(describing: claims["iss"]))") }
        if claims["scope"]?.stringValue != "https://www.googleapis.com/auth/firebase.messaging" {
            problems.append("scope \(String(describing: claims["scope"]))")
        }
        if claims["aud"]?.stringValue != tokenURI { problems.append("aud \(String(describing: claims["aud"])), not \(tokenURI)") }
        let now = Int64(Date().timeIntervalSince1970)
        guard let iat = claims["iat"]?.intValue, let exp = claims["exp"]?.intValue else { return problems + ["no iat/exp"] }
        if abs(iat - now) > 60 { problems.append("iat \(iat) is not now (\(now))") }
        if exp != iat + 3600 { problems.append("exp \(exp) is not iat + 3600") }
        guard let key else { return problems + ["no key trusted"] }
        let signed = Data("\(parts[0]).\(parts[1])".utf8)
        if !key.isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: signed),
                                 padding: .insecurePKCS1v1_5) {
            problems.append("JWT signature does not verify")
        }
        return problems
    }

    static func answerSend(_ request: Request, state: Locked<State>) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        let path = request.uri.path
        let authorization = request.headers[.authorization] ?? ""
        let parsed = try? JSONValue.parse(Array(buffer: body)).objectValue
        return state.withLock { state in
            if path != "/v1/projects/\(ServiceAccountFile.projectID)/messages:send" { state.problems.append("send to \(path)") }
            if request.headers[.contentType]?.hasPrefix("application/json") != true {
                state.problems.append("send content type \(request.headers[.contentType] ?? "none")")
            }
            guard authorization.hasPrefix("Bearer "), state.issued.contains(String(authorization.dropFirst(7))) else {
                state.problems.append("send without an access token the fake issued")
                return json(401, #"{"error": {"code": 401, "status": "UNAUTHENTICATED"}}"#)
            }
            guard let parsed, parsed.keys.sorted() == ["message"], let message = parsed["message"]?.objectValue,
                  message["token"]?.stringValue != nil, message["notification"]?.objectValue != nil,
                  message["data"]?.objectValue?["notificationId"]?.stringValue != nil
            else {
                state.problems.append("send body is not an FCM v1 message: \(String(buffer: body))")
                return json(400, #"{"error": {"code": 400, "status": "INVALID_ARGUMENT"}}"#)
            }
            let token = message["token"]?.stringValue ?? ""
            let now = ContinuousClock.now
            let retried = "\(token) \(message["data"]?.objectValue?["notificationId"]?.stringValue ?? "")"
            if let last = state.lastAnswers[retried], let problem = Self.earlyRetry(after: last.answer, waited: now - last.at) {
                state.problems.append(problem)
            }
            var answer = state.standing[token] ?? Answer.ok
            if var script = state.scripts[token], !script.isEmpty {
                answer = script.removeFirst()
                state.scripts[token] = script
            }
            state.lastAnswers[retried] = (answer, now)
            state.sends.append(Send(message: message, status: answer.status))
            var response = json(answer.status, answer.body)
            if let retryAfter = answer.retryAfter { response.headers[HTTPField.Name("Retry-After")!] = "\(retryAfter)" }
            return response
        }
    }

    /// FCM's rules for trying again: not before `Retry-After`, and after a 429 without one not
    /// within a minute (FCM's documented minimum backoff for quota errors).
    static func earlyRetry(after answer: Answer, waited: Duration) -> String? {
        if let retryAfter = answer.retryAfter, waited < .seconds(retryAfter) {
            return "retried \(waited) after a \(answer.status) with Retry-After \(retryAfter)"
        }
        if answer.status == 429, answer.retryAfter == nil, waited < .seconds(60) {
            return "retried \(waited) after a 429 without Retry-After; FCM asks for a minute at least"
        }
        return nil
    }

    private static func json(_ status: Int, _ body: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "application/json; charset=UTF-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    private static func form(_ body: String) -> [String: String] {
        var fields: [String: String] = [:]
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String($0)
            }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    private static func decodeBase64URL(_ text: Substring) -> Data? {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: base64)
    }
}
