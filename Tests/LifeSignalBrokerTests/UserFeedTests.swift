@testable import LifeSignalBroker
import LifeSignalPostgres
import LifeSignalProtocol
import Testing

/// A cluster broker's feed of one user's live events (`DeviceFeed`), with the log read by a fake:
/// whatever a device is sent follows on from what it holds, with no gap (§6), also when
/// retention pruned the events the feed was still to send (§3).
@Suite("Cluster: a user's live feed")
struct UserFeedTests {
    @Test func aFeedBehindTheKeptEventsCutsItsDevicesRatherThanSendAGap() {
        let (feed, log, devices) = Self.feed(delivered: 5, devices: ["phone": 5, "tablet": 3])
        let (phone, tablet) = (devices["phone"]!, devices["tablet"]!)
        var answered = false
        feed.afterDelivering(11) { answered = true }

        // 6 to 9 were pruned: the log after 5 starts at 10.
        log.answer(.success(Self.events(10, 11)))

        for device in [phone, tablet] {
            #expect(device.isClosed)
            #expect(device.seqs.isEmpty, "sent \(device.seqs) after 5")
        }
        #expect(feed.delivered == 11)
        #expect(answered)
        #expect(log.reads == [5])

        // It carries on from there.
        feed.want(12)
        #expect(log.reads == [5, 11])
    }

    /// A device whose catch-up (a snapshot at its hello) reached past the pruned events is not
    /// missing them: it stays and gets what follows.
    @Test func aDeviceWhoseCatchUpCoversThePrunedEventsStays() {
        let (feed, log, devices) = Self.feed(delivered: 5, devices: ["old": 5, "fresh": 10])
        let (old, fresh) = (devices["old"]!, devices["fresh"]!)
        feed.want(11)
        log.answer(.success(Self.events(10, 11)))

        #expect(old.isClosed && old.seqs.isEmpty)
        #expect(!fresh.isClosed)
        #expect(fresh.seqs == [11])
        #expect(feed.delivered == 11)
    }

    @Test func eventsThatFollowOnAreSentInOrder() {
        let (feed, log, devices) = Self.feed(delivered: 5, devices: ["phone": 5])
        let phone = devices["phone"]!
        feed.want(8)
        log.answer(.success(Self.events(6, 7, 8)))
        #expect(!phone.isClosed)
        #expect(phone.seqs == [6, 7, 8])
        #expect(feed.delivered == 8)
    }

    /// An offer sent some of what the read brings meanwhile: those are not a gap.
    @Test func eventsOfferedDuringARead() {
        let (feed, log, devices) = Self.feed(delivered: 5, devices: ["phone": 5])
        let phone = devices["phone"]!
        feed.want(6)
        feed.offer([CommittedEvent(userID: "u_a", seq: 6, frame: FrameEncoder.frame(body: Array(Self.body(6).utf8)))])
        log.answer(.success(Self.events(6, 7)))
        #expect(!phone.isClosed)
        #expect(phone.seqs == [6, 7])
    }

    /// A read that started before a request's commit finds nothing; the request's answer still
    /// waits for its own events, which the next read brings (§6: events before the `ok`).
    @Test func anAnswerWaitsForItsEventsWhenARaceLeftTheReadEmpty() {
        let (feed, log, devices) = Self.feed(delivered: 5, devices: ["phone": 5])
        let phone = devices["phone"]!
        feed.want(6)
        // Another broker's event 6 and this broker's 7 are committed while the read runs; 7's
        // request waits for it (6 is not here yet, so 7 is not offered in order).
        var answered = false
        feed.offer([CommittedEvent(userID: "u_a", seq: 7, frame: FrameEncoder.frame(body: Array(Self.body(7).utf8)))])
        feed.afterDelivering(7) { answered = true }
        log.answer(.success([]))

        #expect(!answered, "answered before its event was sent")
        #expect(log.reads == [5, 5])
        log.answer(.success(Self.events(6, 7)))
        #expect(phone.seqs == [6, 7])
        #expect(answered)
    }

    /// A failed read does not hold answers until PostgreSQL is back: they go out, and the events
    /// follow when a hint or head check reads again.
    @Test func aFailedReadReleasesTheAnswers() {
        let (feed, log, _) = Self.feed(delivered: 5, devices: ["phone": 5])
        var answered = false
        feed.afterDelivering(6) { answered = true }
        log.answer(.failure(CancellationError()))
        #expect(answered)
        #expect(feed.delivered == 5)
    }

    /// A feed at `delivered` with devices whose catch-up reached the given seqs, and its fake log
    /// (kept by the test: the feed's reader holds it weakly).
    fileprivate static func feed(delivered: Int64, devices: [String: Int64])
        -> (DeviceFeed<RecordingConnection>, FakeLog, [String: RecordingConnection])
    {
        let log = FakeLog()
        let feed = DeviceFeed<RecordingConnection>(userID: "u_a", delivered: delivered, read: log.reader)
        feed.connections = devices.mapValues { RecordingConnection(baseline: $0) }
        return (feed, log, feed.connections)
    }

    static func events(_ seqs: Int64...) -> [(seq: Int64, body: String)] { seqs.map { ($0, body($0)) } }

    static func body(_ seq: Int64) -> String {
        #"{"op":"event","seq":\#(seq),"event":"user.updated","data":{}}"#
    }
}

/// The log as the feed reads it: each read waits for `answer`.
private final class FakeLog: @unchecked Sendable {
    private(set) var reads: [Int64] = []
    private var pending: (@Sendable (Result<[(seq: Int64, body: String)], any Error>) -> Void)?

    var reader: DeviceFeed<RecordingConnection>.EventReader {
        // Weakly: a read left unanswered holds the feed, which holds this reader.
        { [weak self] after, completion in
            self?.reads.append(after)
            self?.pending = completion
        }
    }

    func answer(_ result: Result<[(seq: Int64, body: String)], any Error>) {
        let completion = pending
        pending = nil
        completion?(result)
    }
}

/// A device's connection that keeps the seqs of the events it was sent, and that sends nothing
/// once closed (as `ClientConnection`).
private final class RecordingConnection: FeedConnection {
    let baselineSeq: Int64
    private(set) var seqs: [Int64] = []
    private(set) var isClosed = false

    init(baseline: Int64) { baselineSeq = baseline }

    func sendEvent(seq: Int64, frame: [UInt8], revoking: String?) {
        guard seq > baselineSeq, !isClosed else { return }
        seqs.append(seq)
    }

    func close() { isClosed = true }
}
