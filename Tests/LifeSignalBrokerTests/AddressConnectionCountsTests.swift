@testable import LifeSignalBroker
import LifeSignalUV
import Testing

@Suite struct AddressConnectionCountsTests {
    private let ipv4 = IPAddress(high: 0, low: 0xffff_7f00_0001)  // 127.0.0.1

    @Test func anAddressHasRoomUpToTheLimitAndAgainOnceOneCloses() {
        var counts = AddressConnectionCounts(limit: 2)
        counts.opened(ipv4)
        #expect(counts.hasRoom(for: ipv4))
        counts.opened(ipv4)
        #expect(!counts.hasRoom(for: ipv4))
        #expect(counts.hasRoom(for: IPAddress(high: 0, low: 0xffff_7f00_0002)))
        counts.closed(ipv4)
        #expect(counts.hasRoom(for: ipv4))
        counts.closed(ipv4)
        #expect(counts.addresses == 0)
    }

    @Test func ipv6AddressesCountPerSlash64() {
        var counts = AddressConnectionCounts(limit: 1)
        counts.opened(IPAddress(high: 0x2001_0db8_0000_0001, low: 1))
        #expect(!counts.hasRoom(for: IPAddress(high: 0x2001_0db8_0000_0001, low: 0xffff)))
        #expect(counts.hasRoom(for: IPAddress(high: 0x2001_0db8_0000_0002, low: 1)))
    }

    @Test func zeroCountsNothing() {
        var counts = AddressConnectionCounts(limit: 0)
        for _ in 0..<5 { counts.opened(ipv4) }
        #expect(counts.hasRoom(for: ipv4))
        #expect(counts.addresses == 0)
    }
}
