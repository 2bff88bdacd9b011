import Testing
@testable import LifeSignalUV

/// An actor on a loop, as the broker's are.
private actor Counter: LoopIsolated {
    nonisolated let loop: EventLoop
    var count = 0
    var log: [String] = []

    init(loop: EventLoop) { self.loop = loop }

    func add(_ amount: Int) -> Int {
        count += amount
        return count
    }
}

private struct Refused: Error, Equatable {}

/// `onLoop` reaches the actor's isolated side from the loop's own callbacks: these check that the
/// actor the closure gets is the one asked for, that values and errors come back, and that the
/// state is the one the actor's own executor sees.
@Suite struct LoopIsolatedTests {
    @Test func aClosureRunsOnTheActorItWasGivenAndReturnsItsValue() async throws {
        let runner = try LoopRunner()
        let (first, second) = (Counter(loop: runner.loop), Counter(loop: runner.loop))
        let results = await runner.onLoop { () -> [Int] in
            var seen: [Int] = []
            for amount in 1...100 {
                seen.append(first.onLoop { $0.add(amount) })
                // One actor's closure reaching another, as a session reaches a contact's.
                first.onLoop { counter in
                    counter.log.append("first \(amount)")
                    second.onLoop { $0.log.append("second \(amount)") }
                }
            }
            seen.append(second.onLoop { $0.count })
            return seen
        }
        #expect(results == (1...100).map { $0 * ($0 + 1) / 2 } + [0])
        #expect(await first.count == 5050)
        #expect(await first.log == (1...100).map { "first \($0)" })
        #expect(await second.log == (1...100).map { "second \($0)" })
        #expect(await runner.shutdown() == "ok")
    }

    @Test func anErrorThrownInsideComesOutAndTheStateBeforeItStays() async throws {
        let runner = try LoopRunner()
        let counter = Counter(loop: runner.loop)
        let outcome = await runner.onLoop { () -> String in
            do {
                try counter.onLoop { counter in
                    counter.count = 7
                    throw Refused()
                }
                return "returned"
            } catch {
                return error is Refused ? "refused" : "\(error)"
            }
        }
        #expect(outcome == "refused")
        #expect(await counter.count == 7)
        #expect(await runner.shutdown() == "ok")
    }
}
