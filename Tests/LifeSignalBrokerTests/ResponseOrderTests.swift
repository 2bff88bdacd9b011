@testable import LifeSignalBroker
import Testing

@Suite struct ResponseOrderTests {
    private func ready(_ byte: UInt8) -> ResponseOrder.Ready { .init(bytes: [byte], closeAfter: false) }

    @Test func aResponseReadyAtOnceIsReleasedAtOnce() {
        var order = ResponseOrder()
        let ticket = order.reserve()
        #expect(order.fill(ticket, with: ready(1)).map(\.bytes) == [[1]])
        #expect(order.isIdle)
    }

    @Test func laterResponsesWaitForEarlierOnes() {
        var order = ResponseOrder()
        let first = order.reserve()
        let second = order.reserve()
        let third = order.reserve()
        #expect(order.fill(third, with: ready(3)).isEmpty)
        #expect(order.fill(second, with: ready(2)).isEmpty)
        #expect(order.fill(first, with: ready(1)).map(\.bytes) == [[1], [2], [3]])
        #expect(order.isIdle)
    }

    @Test func ticketsKeepWorkingAfterTheQueueEmpties() {
        var order = ResponseOrder()
        for round in 0..<100 {
            let a = order.reserve()
            let b = order.reserve()
            #expect(order.fill(b, with: ready(UInt8(round % 200))).isEmpty)
            #expect(order.fill(a, with: ready(0)).count == 2)
        }
    }
}
