import DequeModule
import LifeSignalLimits
import LifeSignalProtocol
import LifeSignalUV
import Logging

/// One device's TCP connection as the broker sees it: decodes frames, routes each request
/// synchronously into the broker or the user's session, and writes responses in request order.
///
/// Loop thread only. It is `@unchecked Sendable` so that commit completions, which run on
/// the loop, may capture it; every entry point is on the loop thread.
final class ClientConnection: TCPConnectionDelegate, @unchecked Sendable {
    typealias State = ConnectionStateMachine<Attachment, Incoming>
    typealias Phase = State.Phase

    /// Where an attached device's requests go, and which device it is.
    struct Attachment {
        let router: any DeviceRouter
        let deviceID: String
    }

    let tcp: TCPConnection
    let broker: Broker
    /// The protocol state; this class carries out what it decides.
    private(set) var state: State
    /// Events at or below this seq reach this device through its catch-up, not live.
    var baselineSeq: Int64 = .max
    private var decoder: FrameDecoder
    private var responses = ResponseOrder()
    /// What each answer still due belongs to, for `RequestMetrics`; empty when metrics are off.
    @exclusivity(unchecked) private var inFlight = InFlightRequests()
    /// `requestRate` / `requestBurst` (§9 `rate_limited`).
    private var requestBudget = TokenBucket()
    /// Where a `device.revoke` of this very device stands (§12: signing out is `ok`, then close).
    private var signOut = SignOut.none

    private enum SignOut: Equatable {
        case none
        /// The device asked to revoke itself, in the request `rid`: refused, it is `none` again.
        case asked(rid: Int64?)
        /// Its revocation reached it: it closes once its answers are out.
        case revoked
    }

    /// The broker's, not copies: a connection per online device holds only what is its own.
    private var maxOutboundBytes: Int { broker.configuration.maxOutboundBytes }
    /// Frame bytes held at which reading pauses until they have run.
    private var maxHeldBytes: Int { 4 * broker.configuration.maxFrameBytes }

    init(tcp: TCPConnection, broker: Broker, configuration: BrokerConfiguration) {
        self.tcp = tcp
        self.broker = broker
        decoder = FrameDecoder(maxFrameBytes: configuration.maxFrameBytes)
        // A fresh reading, once per connection: the iteration's cached time may be seconds old on
        // a loop that was late, which would start the hello timeout before the connection existed.
        state = State(openedAtMs: tcp.loop.monotonicNowMs())
    }

    var id: UInt64 { tcp.id }
    var phase: Phase { state.phase }
    var attachment: Attachment? { state.attachment }
    var isClosing: Bool { state.isClosing }
    /// The device this connection serves while it is active.
    var activeDeviceID: String? { state.isActive ? state.attachment?.deviceID : nil }

    // MARK: reading

    func connection(_ connection: TCPConnection, didRead bytes: UnsafeRawBufferPointer) {
        state.heard(atMs: tcp.loop.cachedNowMs)
        // The iteration's clock: no reading per frame, and none at all when metrics are off.
        let arrivedNs = withRequestMetrics { $0.loop.iterationNowNs } ?? 0
        do {
            try decoder.feed(bytes) { body in
                handleFrame(body, arrivedNs: arrivedNs)
                return !isClosing
            }
        } catch let error as ProtocolError {
            // bad_frame / frame_too_large: the frame boundary is lost, so the connection ends (§1).
            fail(error, rid: nil)
        } catch {
            fail(ProtocolError(.internal, "\(error)"), rid: nil)
        }
    }

    private func handleFrame(_ body: UnsafeRawBufferPointer, arrivedNs: UInt64) {
        // Every frame takes a token, also one answered bad_json or bad_request: abuse is abuse.
        // `lastHeardMs` is the loop's cached time of this read, so this costs no clock read.
        let admitted = requestBudget.take(nowMs: state.lastHeardMs, rate: broker.requestBudgetRate)
        let request: Request
        do {
            request = try Request.parse(body)
        } catch {
            beginAnswer(op: nil, arrivedNs: arrivedNs)
            take(.refusal(admitted ? error.error : Self.rateLimited, rid: error.rid), size: body.count)
            return endAnswer()
        }
        beginAnswer(op: request.op, arrivedNs: arrivedNs)
        // Answered in its place with its rid, and not run (§9).
        take(admitted ? .request(request) : .refusal(Self.rateLimited, rid: request.rid), size: body.count)
        endAnswer()
    }

    private static let rateLimited = ProtocolError(.rateLimited, "over this connection's request rate")

    /// Every frame that reaches here gets exactly one answer, in order (§2): while it or after it
    /// is handled (`endAnswer`).
    private func beginAnswer(op: String?, arrivedNs: UInt64) {
        withRequestMetrics { metrics in
            inFlight.beginHandling(op: op.map(metrics.index(of:)) ?? RequestMetrics.invalidFrame, arrivedNs: arrivedNs)
        }
    }

    private func endAnswer() {
        withRequestMetrics { _ in inFlight.endHandling() }
    }

    /// Counts the answer now written against the oldest request awaiting one.
    private func recordAnswer(_ result: ProtocolError.Code?) {
        withRequestMetrics { metrics in
            if let request = inFlight.answered(nowNs: metrics.loop.iterationNowNs) {
                metrics.record(op: request.op, result: result, durationNs: request.durationNs)
            } else {
                // An answer to no request: a broken frame's, or a connection closed from our side.
                metrics.record(op: RequestMetrics.invalidFrame, result: result, durationNs: 0)
            }
        }
    }

    /// Runs `body` with the broker's request metrics, if it keeps them; the broker holds them for
    /// as long as it serves connections.
    @inline(__always)
    private func withRequestMetrics<T>(_ body: (RequestMetrics) -> T) -> T? {
        broker.unretainedRequestMetrics?._withUnsafeGuaranteedRef(body)
    }

    /// What a frame asks for: a request to run, or an answer it gets without running.
    enum Incoming {
        case request(Request)
        case refusal(ProtocolError, rid: Int64?)
    }

    /// Runs or answers a frame now, or, while an earlier request is being prepared, after it:
    /// answers leave in the order their frames came (§2), a refusal included.
    private func take(_ incoming: Incoming, size: Int) {
        switch state.arrived(incoming, size: size, maxHeldBytes: maxHeldBytes) {
        case .run(let incoming): run(incoming)
        case .held: break
        case .heldPauseReading: tcp.stopReading()
        }
    }

    private func run(_ incoming: Incoming) {
        switch incoming {
        case .request(let request): route(request)
        case .refusal(let error, let rid): respond(error: error, rid: rid)
        }
    }

    /// Sends `request` wherever the connection's phase says it belongs.
    func route(_ request: Request) {
        // The op and rid only: a request's fields hold credentials, push tokens and QR codes.
        if broker.logsRequests {
            broker.logger.trace("request", metadata: [
                "lifesignal.conn": .stringConvertible(id), "lifesignal.op": "\(request.op)", "lifesignal.rid": .stringConvertible(request.rid ?? -1),
            ])
        }
        switch state.destination {
        case .unauthenticated: broker.onLoop { $0.handleUnauthenticated(request, from: self) }
        case .device(let attachment): attachment.router.route(request, from: self)
        case .nowhere: break
        }
    }

    /// Holds this connection's next requests until the matching `releaseRequests()`: a request
    /// whose preparation is under way must run before the ones after it (§2).
    func holdRequests() { state.hold() }

    func releaseRequests() {
        state.release()
        runReleased()
    }

    /// Runs the held frames now due, then reads again if reading was paused for them.
    private func runReleased() {
        while let incoming = state.nextReleased() { run(incoming) }
        if state.resumesReading(atMs: tcp.loop.cachedNowMs, maxHeldBytes: maxHeldBytes) { tcp.startReading() }
    }

    /// Starts checking a `hello`: the requests pipelined behind it wait for the answer.
    func beginAuthentication() { state.beginAuthentication() }

    /// Ends the `authenticating` phase attached to a device, and runs what arrived meanwhile, in order.
    func finishAuthentication(attachedTo router: any DeviceRouter, deviceID: String) {
        guard state.finishAuthentication(attachedTo: Attachment(router: router, deviceID: deviceID)) else { return }
        broker.logger.debug("device attached", metadata: [
            "lifesignal.conn": .stringConvertible(id), "lifesignal.user": "\(router.userID)", "lifesignal.device": "\(deviceID)",
        ])
        runReleased()
    }

    /// Ends the `authenticating` phase unattached: the device may say hello again.
    func abandonAuthentication() {
        if state.abandonAuthentication() { runReleased() }
    }

    func connectionDidClose(_ connection: TCPConnection, error: UVError?) {
        state.closing()
        broker.onLoop { $0.connectionClosed(self) }
    }

    // MARK: writing

    func reserveResponse() -> ResponseOrder.Ticket { responses.reserve() }

    /// `result` is the error code `bytes` answer with, nil for `ok`.
    func complete(_ ticket: ResponseOrder.Ticket, with bytes: [UInt8], result: ProtocolError.Code? = nil,
                  closeAfter: Bool = false) {
        for ready in responses.fill(ticket, with: .init(bytes: bytes, result: result, closeAfter: closeAfter)) {
            guard !tcp.isClosed else { return }
            recordAnswer(ready.result)
            write(ready.bytes)
            if ready.closeAfter {
                state.closing()
                tcp.closeAfterFlush()
                return
            }
        }
        closeIfSignedOut()
    }

    func respond(rid: Int64?, _ reply: Reply) { respond(rid: rid, reply.fields) }

    func respond(rid: Int64?, _ fields: JSONObject = [:], closeAfter: Bool = false) {
        complete(reserveResponse(), with: Outbound.ok(rid: rid, fields), closeAfter: closeAfter)
    }

    /// Keepalive's answer. With no earlier response still waiting (the usual case) it is encoded
    /// straight into the output: the hot path of a pipelined connection (issue 5's profile).
    func respond(rid: Int64?, serverTime: Int64) {
        guard responses.isIdle else { return respond(rid: rid, .serverTime(serverTime)) }
        recordAnswer(nil)
        tcp.write { Outbound.appendOK(rid: rid, serverTime: serverTime, to: &$0) }
        cutIfTooFarBehind()
    }

    /// Answers with an error; closes after it when §9 says the code closes.
    func respond(error: ProtocolError, rid: Int64?) {
        complete(reserveResponse(), with: error, rid: rid)
        if error.code.closesConnection { state.closing() }
    }

    /// Fills `ticket` with an error answer; closes after it when §9 says the code closes.
    func complete(_ ticket: ResponseOrder.Ticket, with error: ProtocolError, rid: Int64?) {
        // A refused sign-out signs nothing out: a later revocation by another device is `revoked`.
        if signOut == .asked(rid: rid) { signOut = .none }
        complete(ticket, with: Outbound.error(rid: rid, error), result: error.code,
                 closeAfter: error.code.closesConnection)
    }

    /// A fatal error: answered at once (ahead of pending responses, which can no longer matter), then closed.
    func fail(_ error: ProtocolError, rid: Int64?) {
        guard !tcp.isClosed else { return }
        state.closing()
        recordAnswer(error.code)
        write(Outbound.error(rid: rid, error))
        tcp.closeAfterFlush()
    }

    func sendEvent(seq: Int64, frame: [UInt8], revoking: String?) {
        guard seq > baselineSeq, !tcp.isClosed else { return }
        if let revoking, revoking == attachment?.deviceID { return revoked() }
        write(frame)
    }

    /// The device asked to revoke its own credential in request `rid`: signing out (§12).
    func beginSigningOut(rid: Int64?) { signOut = .asked(rid: rid) }

    /// The event revoking this device reached it: closed with `revoked`, or, when it signed
    /// itself out, once its answers (the `ok` among them) are out.
    private func revoked() {
        guard case .asked = signOut else { return cut(.revoked, .revokedDevice) }
        signOut = .revoked
        closeIfSignedOut()
    }

    private func closeIfSignedOut() {
        guard signOut == .revoked, responses.isIdle, !tcp.isClosed else { return }
        state.closing()
        tcp.closeAfterFlush()
    }

    private func write(_ bytes: [UInt8]) {
        tcp.write(bytes)
        cutIfTooFarBehind()
    }

    private func cutIfTooFarBehind() {
        // A reader this far behind is cut; it catches up later with `resume` (§9).
        if tcp.bufferedBytes > maxOutboundBytes { cut(.slowReader, nil, ["lifesignal.buffered": .stringConvertible(tcp.bufferedBytes)]) }
    }

    /// Ends the connection on the broker's own account, counted and logged by `reason`; `error`,
    /// when given, is sent first (§9), else it closes at once.
    func cut(_ reason: ConnectionCut, _ error: ProtocolError? = nil, _ details: Logger.Metadata = [:]) {
        guard !tcp.isClosed else { return }
        broker.logCut(reason, identity.merging(details) { $1 })
        if let error { fail(error, rid: nil) } else { close() }
    }

    /// Which connection, user and device, for the log.
    private var identity: Logger.Metadata {
        var metadata: Logger.Metadata = ["lifesignal.conn": .stringConvertible(id)]
        if let attachment {
            metadata["lifesignal.user"] = "\(attachment.router.userID)"
            metadata["lifesignal.device"] = "\(attachment.deviceID)"
        }
        return metadata
    }

    func close() {
        state.closing()
        tcp.close()
    }

    /// Sends `frame` if the kernel takes it at once, then closes, freeing the descriptor now.
    func closeNow(_ frame: [UInt8]) {
        state.closing()
        tcp.writeNowAndClose(frame)
    }
}
