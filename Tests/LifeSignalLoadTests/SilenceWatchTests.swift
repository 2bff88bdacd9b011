@testable import LifeSignalLoad
import Testing

/// A run fails when its devices waited and heard nothing for `SilenceWatch.limitSeconds`: a broker
/// that stopped answering. Quiet seconds with nothing awaited are no silence.
@Suite struct SilenceWatchTests {
    private static let second: UInt64 = 1_000_000_000

    /// Ticks a second apart from the window's start: `heard` at each, and whether anything was awaited.
    private func watch(_ ticks: [(heard: UInt64, waiting: Bool)]) -> SilenceWatch {
        var watch = SilenceWatch()
        for (index, tick) in ticks.enumerated() {
            watch.observe(heard: tick.heard, waiting: tick.waiting, nowNs: UInt64(index + 1) * Self.second,
                          windowStartNs: 0)
        }
        return watch
    }

    @Test func aBrokerThatAnswersNothingWhileRequestsWaitFailsTheRun() {
        let stopped = watch([(10, true), (20, true)] + Array(repeating: (20, true), count: 7) + [(25, true)])
        #expect(stopped.longestSeconds == 7)
        #expect(stopped.failure == "nothing was answered or delivered for 7.0 s (from 2.0 s into the window) while devices waited")
    }

    @Test func quietSecondsWithNothingAwaitedAreNoSilence() {
        let idle = watch([(1, false)] + Array(repeating: (1, false), count: 9))
        #expect(idle.longestSeconds == 0)
        #expect(idle.failure == nil)
    }

    @Test func theLongestOfSeveralSilencesIsKeptAndShortOnesPass() {
        let bursts = watch([(1, true), (1, true), (1, true), (2, true), (2, true), (2, true), (2, true), (3, true)])
        #expect(bursts.longestSeconds == 3)
        #expect(bursts.failure == nil)
    }
}
