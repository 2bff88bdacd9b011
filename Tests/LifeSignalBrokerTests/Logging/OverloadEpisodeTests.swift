@testable import LifeSignalBroker
import Testing

@Suite struct OverloadEpisodeTests {
    /// Two lines however long it lasts: a begin, then an end with its length and refusals.
    @Test func anEpisodeBeginsOnceAndEndsWithItsLengthAndRefusals() {
        var episode = OverloadEpisode()
        let endedBeforeAny = episode.end(nowMs: 5)
        #expect(endedBeforeAny == nil)
        let began = episode.begin(nowMs: 100)
        episode.countRefusal()
        let beganAgain = episode.begin(nowMs: 200)
        episode.countRefusal()
        #expect(began && !beganAgain)
        let ended = episode.end(nowMs: 1_100)
        #expect(ended?.durationMs == 1_000)
        #expect(ended?.refused == 2)
        let endedAgain = episode.end(nowMs: 1_200)
        #expect(endedAgain == nil)
        // A new episode counts afresh.
        _ = episode.begin(nowMs: 1_300)
        let next = episode.end(nowMs: 1_300)
        #expect(next?.refused == 0)
    }
}
