@testable import LifeSignalBroker
import Testing

/// A connection's protocol state without a socket: the attachment is a device id, a frame an int.
@Suite struct ConnectionStateMachineTests {
    typealias Machine = ConnectionStateMachine<String, Int>

    /// Holds the value, so that `#expect` may call its mutating methods.
    final class Connection {
        var state = Machine(openedAtMs: 1_000)
        let maxHeldBytes: Int
        init(maxHeldBytes: Int) { self.maxHeldBytes = maxHeldBytes }
        func arrived(_ frame: Int, size: Int) -> Machine.Arrival { state.arrived(frame, size: size, maxHeldBytes: maxHeldBytes) }
        func nextReleased() -> Int? { state.nextReleased() }
        func resumesReading(atMs now: UInt64) -> Bool { state.resumesReading(atMs: now, maxHeldBytes: maxHeldBytes) }
        func finishAuthentication(attachedTo device: String) -> Bool { state.finishAuthentication(attachedTo: device) }
        func abandonAuthentication() -> Bool { state.abandonAuthentication() }
    }

    private func machine(maxHeldBytes: Int = 100) -> Connection { Connection(maxHeldBytes: maxHeldBytes) }

    private func runNow(_ arrival: Machine.Arrival) -> Int? {
        if case .run(let frame) = arrival { frame } else { nil }
    }

    private func drain(_ connection: Connection) -> [Int] {
        var frames: [Int] = []
        while let frame = connection.nextReleased() { frames.append(frame) }
        return frames
    }

    private func isUnauthenticated(_ destination: Machine.Destination) -> Bool {
        if case .unauthenticated = destination { true } else { false }
    }

    private func device(_ destination: Machine.Destination) -> String? {
        if case .device(let id) = destination { id } else { nil }
    }

    @Test func aNewConnectionRunsEachFrameAtOnceAsUnauthenticated() {
        let connection = machine()
        #expect(connection.state.phase == .awaitingHello)
        #expect(isUnauthenticated(connection.state.destination))
        #expect(runNow(connection.arrived(1, size: 10)) == 1)
        #expect(connection.nextReleased() == nil)
    }

    @Test func framesBehindAHelloWaitAndRunInOrderOnTheDeviceItAttached() {
        let connection = machine()
        connection.state.beginAuthentication()
        #expect(connection.state.phase == .authenticating)
        if case .nowhere = connection.state.destination {} else { Issue.record("an authenticating connection routes nowhere") }
        for frame in 1...3 { #expect(runNow(connection.arrived(frame, size: 10)) == nil) }
        #expect(connection.finishAuthentication(attachedTo: "d1"))
        #expect(connection.state.phase == .active)
        #expect(device(connection.state.destination) == "d1")
        #expect(drain(connection) == [1, 2, 3])
        #expect(runNow(connection.arrived(4, size: 10)) == 4)
    }

    @Test func aFailedHelloReturnsToAwaitingHelloAndRunsWhatWaited() {
        let connection = machine()
        connection.state.beginAuthentication()
        _ = connection.arrived(1, size: 10)
        #expect(connection.abandonAuthentication())
        #expect(connection.state.phase == .awaitingHello)
        #expect(connection.state.attachment == nil)
        #expect(isUnauthenticated(connection.state.destination))
        #expect(drain(connection) == [1])
    }

    @Test func aHelloThatEndsAfterTheConnectionClosedAttachesNothingAndRunsNothing() {
        let connection = machine()
        connection.state.beginAuthentication()
        _ = connection.arrived(1, size: 10)
        connection.state.closing()
        #expect(!connection.finishAuthentication(attachedTo: "d1"))
        #expect(!connection.abandonAuthentication())
        #expect(connection.state.attachment == nil)
        #expect(connection.nextReleased() == nil)
    }

    @Test func theAttachmentOutlivesClosingSoTheDeviceIsDetachedHoweverItEnds() {
        let connection = machine()
        connection.state.beginAuthentication()
        _ = connection.finishAuthentication(attachedTo: "d1")
        connection.state.closing()
        #expect(connection.state.isClosing)
        #expect(connection.state.attachment == "d1")
        if case .nowhere = connection.state.destination {} else { Issue.record("a closing connection routes nowhere") }
    }

    @Test func nestedHoldsReleaseOnlyWhenTheLastEndsAndAReleasedFrameMayHoldAgain() {
        let connection = machine()
        connection.state.beginAuthentication()
        _ = connection.finishAuthentication(attachedTo: "d1")
        connection.state.hold()
        connection.state.hold()
        for frame in 1...3 { _ = connection.arrived(frame, size: 10) }
        connection.state.release()
        #expect(connection.nextReleased() == nil)
        connection.state.release()
        #expect(connection.nextReleased() == 1)
        // Frame 1's preparation holds: 2 and 3 stay behind it.
        connection.state.hold()
        #expect(connection.nextReleased() == nil)
        connection.state.release()
        #expect(drain(connection) == [2, 3])
    }

    @Test func readingPausesOnceWhenHeldBytesPassTheBoundAndResumesWhenTheyDrain() {
        let connection = machine(maxHeldBytes: 100)
        connection.state.hold()
        #expect(connection.arrived(1, size: 60).isHeld)
        guard case .heldPauseReading = connection.arrived(2, size: 60) else { Issue.record("no pause past the bound"); return }
        guard case .held = connection.arrived(3, size: 60) else { Issue.record("paused twice"); return }
        #expect(!connection.resumesReading(atMs: 2_000))
        connection.state.release()
        #expect(drain(connection) == [1, 2, 3])
        #expect(connection.resumesReading(atMs: 2_000))
        #expect(connection.state.lastHeardMs == 2_000)
        #expect(!connection.resumesReading(atMs: 3_000))
    }

    @Test func readingResumesWhileStillHeldOnceHalfTheBoundIsLeft() {
        let connection = machine(maxHeldBytes: 100)
        connection.state.hold()
        _ = connection.arrived(1, size: 80)
        _ = connection.arrived(2, size: 40)
        connection.state.release()
        #expect(connection.nextReleased() == 1)
        connection.state.hold()  // frame 1 holds again, with 40 bytes behind it
        #expect(connection.resumesReading(atMs: 2_000))
    }

    @Test func aClosingConnectionNeitherRunsHeldFramesNorResumesReading() {
        let connection = machine(maxHeldBytes: 10)
        connection.state.hold()
        _ = connection.arrived(1, size: 20)
        connection.state.closing()
        connection.state.release()
        #expect(connection.nextReleased() == nil)
        #expect(!connection.resumesReading(atMs: 2_000))
    }

    @Test func theSweepFailsALateHelloAndClosesASilentDevice() {
        let connection = machine()
        let limits = (hello: UInt64(500), silence: UInt64(2_000))
        func verdict(at now: UInt64) -> Machine.SweepVerdict {
            connection.state.sweepVerdict(judgedAtMs: now, helloTimeoutMs: limits.hello, silenceLimitMs: limits.silence)
        }
        #expect(verdict(at: 1_500) == .keep)
        #expect(verdict(at: 1_501) == .failHelloTimeout)
        // A sweep judged before the connection opened (a loop late to accept it) keeps it.
        #expect(verdict(at: 900) == .keep)
        connection.state.beginAuthentication()
        #expect(verdict(at: 1_501) == .failHelloTimeout)
        _ = connection.finishAuthentication(attachedTo: "d1")
        connection.state.heard(atMs: 5_000)
        #expect(verdict(at: 7_000) == .heard)
        #expect(verdict(at: 7_001) == .closeSilent)
        #expect(verdict(at: 4_000) == .heard)
        connection.state.closing()
        #expect(verdict(at: 99_000) == .keep)
    }
}

extension ConnectionStateMachine.Arrival {
    fileprivate var isHeld: Bool { if case .held = self { true } else { false } }
}
