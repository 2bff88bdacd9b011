import DequeModule

/// A device connection's protocol state as a value: which phase it is in (PROTOCOL §3), where a
/// request goes, which frames wait behind one being prepared (§2) and when reading pauses for them,
/// and what the timeout sweep does with it. It owns no socket: `ClientConnection` feeds it events
/// and carries out the actions it returns, so every transition is tested without one.
struct ConnectionStateMachine<Attachment, Incoming> {
    enum Phase {
        /// Only `register` and `hello` are allowed.
        case awaitingHello
        /// `hello` is being checked (the user may be loading); requests are held meanwhile.
        case authenticating
        /// Attached to a device: requests go to it.
        case active
        case closing
    }

    /// Where a request goes now.
    enum Destination {
        case unauthenticated
        case device(Attachment)
        /// Authenticating always holds; what reaches a closing connection is dropped.
        case nowhere
    }

    /// What to do with a frame that has just arrived. Reading pauses once more than
    /// `maxHeldBytes` wait.
    enum Arrival {
        case run(Incoming)
        case held
        /// Held, and the held bytes passed their bound: stop reading until they drain, so a
        /// device that pipelines faster than its requests are prepared waits in TCP's flow control.
        case heldPauseReading
    }

    /// What the timeout sweep does with the connection.
    enum SweepVerdict: Equatable {
        case failHelloTimeout
        case closeSilent
        /// Attached and heard from lately.
        case heard
        case keep
    }

    // Ordered so that the small fields share one word: there is one of these per online device.
    let openedAtMs: UInt64
    private(set) var lastHeardMs: UInt64
    /// The device this connection was attached to, if it ever was: kept past `.closing`, so the
    /// device is detached however the connection ends.
    private(set) var attachment: Attachment?
    private var held = Deque<(incoming: Incoming, size: Int)>()
    private var heldBytes = 0
    /// Preparations under way (a hello's check, a query, then a load: they may nest).
    private var holds: Int32 = 0
    private(set) var phase: Phase = .awaitingHello
    private var isReadingPaused = false

    init(openedAtMs: UInt64) {
        self.openedAtMs = openedAtMs
        lastHeardMs = openedAtMs
    }

    var isClosing: Bool { if case .closing = phase { true } else { false } }
    var isActive: Bool { if case .active = phase { true } else { false } }
    var destination: Destination {
        switch phase {
        case .awaitingHello: .unauthenticated
        case .active: attachment.map(Destination.device) ?? .nowhere
        case .authenticating, .closing: .nowhere
        }
    }

    mutating func heard(atMs now: UInt64) { lastHeardMs = now }

    /// A frame arrived: it runs now, or waits behind a preparation so answers leave in order.
    /// Consumed, so the common `.run` hands the frame back without a copy.
    mutating func arrived(_ incoming: consuming Incoming, size: Int, maxHeldBytes: Int) -> Arrival {
        guard holds > 0 else { return .run(incoming) }
        held.append((incoming, size))
        heldBytes += size
        guard heldBytes > maxHeldBytes, !isReadingPaused else { return .held }
        isReadingPaused = true
        return .heldPauseReading
    }

    /// A request's preparation began: the frames after it wait until `release()`.
    mutating func hold() { holds += 1 }

    /// A preparation ended. Take the frames now due with `nextReleased()`, then ask
    /// `resumesReading(atMs:)`.
    mutating func release() { holds -= 1 }

    /// The next held frame to run, if nothing holds any more. Running it may hold again, which
    /// keeps the rest queued behind it.
    mutating func nextReleased() -> Incoming? {
        guard holds == 0, !isClosing, let next = held.popFirst() else { return nil }
        heldBytes -= next.size
        return next.incoming
    }

    /// Whether reading, paused for held frames, starts again now (they ran, or half drained).
    mutating func resumesReading(atMs now: UInt64, maxHeldBytes: Int) -> Bool {
        guard isReadingPaused, holds == 0 || heldBytes <= maxHeldBytes / 2, !isClosing else { return false }
        isReadingPaused = false
        lastHeardMs = now
        return true
    }

    /// A `hello` is being checked: it holds the requests pipelined behind it.
    mutating func beginAuthentication() {
        phase = .authenticating
        hold()
    }

    /// The hello attached a device; false if the connection is no longer authenticating (it
    /// closed meanwhile). Release the held frames after it.
    mutating func finishAuthentication(attachedTo attachment: Attachment) -> Bool {
        guard case .authenticating = phase else { return false }
        self.attachment = attachment
        phase = .active
        release()
        return true
    }

    /// The hello failed: the device may say hello again. False if no longer authenticating.
    mutating func abandonAuthentication() -> Bool {
        guard case .authenticating = phase else { return false }
        phase = .awaitingHello
        release()
        return true
    }

    mutating func closing() { phase = .closing }

    /// Judged at the sweep's time: a connection has `helloTimeoutMs` from its opening to be
    /// attached, and an attached one must be heard within `silenceLimitMs`.
    func sweepVerdict(judgedAtMs judgedAt: UInt64, helloTimeoutMs: UInt64, silenceLimitMs: UInt64) -> SweepVerdict {
        switch phase {
        case .awaitingHello, .authenticating:
            judgedAt > openedAtMs && judgedAt &- openedAtMs > helloTimeoutMs ? .failHelloTimeout : .keep
        case .active:
            judgedAt > lastHeardMs && judgedAt &- lastHeardMs > silenceLimitMs ? .closeSilent : .heard
        case .closing:
            .keep
        }
    }
}
