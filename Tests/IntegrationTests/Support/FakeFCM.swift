import _CryptoExtras
import Foundation
import Hummingbird
import LifeSignalProtocol
import LifeSignalUV

/// A local stand-in for Google's OAuth2 token endpoint and FCM's HTTP v1 `messages:send`, on
/// loopback. It checks the shape of every request it gets (`problems`), answers sends as each
/// token's script says (200 once the script runs out), and keeps what it was sent.
final class FakeFCM: @unchecked Sendable {
    /// One answer of `messages:send`.
    struct Answer: Sendable {
        var status: Int
        var body: String
        var retryAfter: Int?

        static let ok = Answer(status: 200, body: #"{"name": "projects/lifesignal-test/messages/1"}"#)
        static func unavailable(retryAfter: Int?) -> Answer {
            Answer(status: 503, body: #"{"error": {"code": 503, "status": "UNAVAILABLE"}}"#, retryAfter: retryAfter)
        }
        static func tooManyRequests(retryAfter: Int?) -> Answer {
            Answer(status: 429, body: #"{"error": {"code": 429, "status": "RESOURCE_EXHAUSTED", "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "QUOTA_EXCEEDED"}]}}"#,
                   retryAfter: retryAfter)
        }
        static let unauthenticated = Answer(status: 401, body: #"{"error": {"code": 401, "status": "UNAUTHENTICATED"}}"#)
        static let unregistered = Answer(status: 404, body: """
            {"error": {"code": 404, "message": "Requested entity was not found.", "status": "NOT_FOUND",
             "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "UNREGISTERED"}]}}
            """)
        static let invalidToken = Answer(status: 400, body: """
            {"error": {"code": 400, "message": "The registration token is not a valid FCM registration token",
             "status": "INVALID_ARGUMENT",
             "details": [{"@type": "type.googleapis.com/google.firebase.fcm.v1.FcmError", "errorCode": "INVALID_ARGUMENT"},
                         {"@type": "type.googleapis.com/google.rpc.BadRequest",
                          "fieldViolations": [{"field": "message.token", "description": "Invalid registration token"}]}]}}
            """)
    }

    /// A send as the fake received it, with how it answered.
    struct Send: Sendable {
        let message: JSONObject
        let status: Int
        var token: String? { message["token"]?.stringValue }
        var notificationID: String? { message["data"]?.objectValue?["notificationId"]?.stringValue }
    }

    struct State {
        /// The public key of the service account whose assertions the token endpoint accepts.
        var trustedKey: _RSA.Signing.PublicKey?
        /// Its `token_uri`: the audience its assertions must name.
        var tokenURI = ""
        /// The lifetime of the access tokens it issues (`expires_in`).
        var expiresIn = 3599
        var tokenRequests = 0
        var tokenRefusals = 0
        var refuseTokens = false
        var issued: Set<String> = []
        var scripts: [String: [Answer]] = [:]
        /// The answer of every send to a token once its script has run out (200 if none).
        var standing: [String: Answer] = [:]
        /// The last answer to each message ("token notificationId") and when it was given, to
        /// check FCM's rules for trying it again.
        var lastAnswers: [String: (answer: Answer, at: ContinuousClock.Instant)] = [:]
        var sends: [Send] = []
        var problems: [String] = []
    }

    let state = Locked(State())
    private(set) var port = 0
    private var server: Task<Void, any Error>?
    var endpoint: String { "http://127.0.0.1:\(port)" }
    var tokenURI: String { "\(endpoint)/token" }

    init() throws {
        let router = Router()
        router.post("/token") { [state] request, _ in try await Self.answerTokenRequest(request, state: state) }
        router.post("**") { [state] request, _ in try await Self.answerSend(request, state: state) }
        let bound = Locked<Int?>(nil)
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                              onServerRunning: { channel in bound.withLock { $0 = channel.localAddress?.port } })
        server = Task(executorPreference: FakeServerExecutor.shared) {
            try await app.runService(gracefulShutdownSignals: [])
        }
        let deadline = ContinuousClock.now + .seconds(10)
        while bound.withLock({ $0 }) == nil && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
        guard let port = bound.withLock({ $0 }) else { throw FakeFCMDidNotStart() }
        self.port = port
    }

    deinit { server?.cancel() }

    /// The token endpoint accepts assertions signed with this account's key.
    func trust(_ account: ServiceAccountFile) { state.withLock { ($0.trustedKey, $0.tokenURI) = (account.publicKey, account.tokenURI) } }

    /// `lsbroker serve`'s options for sending through this fake as `account`: plain http on
    /// loopback, which the broker accepts only when told explicitly.
    func brokerArguments(_ account: ServiceAccountFile) -> [String] {
        ["--fcm-service-account", account.path, "--fcm-endpoint", endpoint, "--fcm-allow-plain-http"]
    }

    /// The answers the next sends to `token` get, in order.
    func script(_ token: String, _ answers: [Answer]) { state.withLock { $0.scripts[token] = answers } }

    /// Every send to `token` gets `answer` once its script has run out.
    func answerAlways(_ token: String, _ answer: Answer) { state.withLock { $0.standing[token] = answer } }

    var sends: [Send] { state.withLock { $0.sends } }
    var problems: [String] { state.withLock { $0.problems } }

    /// Waits (boundedly) until `condition` holds of the state; returns whether it did.
    @discardableResult
    func wait(timeout: Duration = .seconds(15), until condition: (State) -> Bool) -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if state.withLock({ condition($0) }) { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return state.withLock { condition($0) }
    }
}

struct FakeFCMDidNotStart: Error {}

/// A fresh fake FCM, a service account it trusts, and a broker (metrics on) sending through it.
struct BrokerWithFakeFCM {
    let fcm: FakeFCM
    let account: ServiceAccountFile
    let broker: BrokerProcess

    init(environment: [String: String] = [:]) throws {
        fcm = try FakeFCM()
        account = try ServiceAccountFile(tokenURI: fcm.tokenURI)
        fcm.trust(account)
        broker = try BrokerProcess(arguments: fcm.brokerArguments(account) + ["--metrics-port", "0"],
                                   environment: environment)
    }

    var parts: (FakeFCM, ServiceAccountFile, BrokerProcess) { (fcm, account, broker) }
}
