import LifeSignalUV

/// How many connections are open from each source address (an IPv4 address, an IPv6 /64, as
/// `AddressRateLimiter` keys them), for `maxConnectionsPerAddress`. An address with none open
/// has no entry, so the table is never larger than the connections.
struct AddressConnectionCounts: Sendable {
    /// 0: no limit, and nothing is counted.
    let limit: Int
    private var open: [IPAddress: Int] = [:]

    init(limit: Int) { self.limit = limit }

    /// Whether another connection from `address` is allowed.
    func hasRoom(for address: IPAddress) -> Bool {
        limit == 0 || open[AddressRateLimiter.key(address), default: 0] < limit
    }

    /// Counts a connection from `address` that was let in.
    mutating func opened(_ address: IPAddress) {
        guard limit > 0 else { return }
        open[AddressRateLimiter.key(address), default: 0] += 1
    }

    /// A connection `opened` counted has closed.
    mutating func closed(_ address: IPAddress) {
        guard limit > 0 else { return }
        let key = AddressRateLimiter.key(address)
        guard let current = open[key] else { return }
        open[key] = current > 1 ? current - 1 : nil
    }

    func count(_ address: IPAddress) -> Int { open[AddressRateLimiter.key(address)] ?? 0 }
    var addresses: Int { open.count }
}
