import Foundation
import LifeSignalProtocol
import Testing

/// PROTOCOL.md §9: a connection whose unsent output passes `maxOutboundBytes` is closed without
/// disturbing any other, and its device catches up with `resume`.
@Suite("Slow readers", .serialized)
struct SlowReaderTests {
    @Test func aDeviceThatStopsReadingIsCutAndTheOthersGoOn() throws {
        // 10,000 renames as fast as they are answered: far over the default request rate.
        let broker = try BrokerProcess(arguments: ["--max-outbound-bytes", "65536", "--request-rate", "0"])
        let alice = try Person("Alice", port: broker.port)
        let slow = try RawConnection(port: broker.port, receiveBuffer: 4_096)
        #expect(slow.hello(alice.credential, device: "slow")?.okFields != nil)
        // The slow device reads nothing from here on; every change sends it a user.updated (~400 bytes).
        // The phone keeps reading (in rounds of 50), so only the slow device falls behind; 10,000 events
        // (~4.5 MB) are more than the kernel buffers in between can hide.
        var events: [ReceivedEvent] = []
        for round in 0..<200 {
            for index in 0..<50 {
                alice.phone.send(Op.profileUpdate, [
                    "name": .string("Alice \(round)-\(index) " + String(repeating: "x", count: 60)),
                ])
            }
            events += alice.phone.settle()
        }
        #expect(events.count == 10_000)
        #expect(alice.ok(Op.keepalive)["serverTime"] != nil)
        #expect(slow.waitForClose(timeout: .seconds(10)))

        // The device comes back and catches up with what it missed.
        let back = try RawConnection(port: broker.port)
        let lastSeq = try #require(events.last?.seq)
        let greeting = back.hello(alice.credential, device: "slow", resume: lastSeq - 3)?.okFields
        #expect(greeting?["lastSeq"]?.intValue == lastSeq)
        #expect(back.settle().map(\.seq) == [lastSeq - 2, lastSeq - 1, lastSeq])
    }
}
