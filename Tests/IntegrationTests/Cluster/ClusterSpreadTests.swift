import LifeSignalProtocol
import Testing

/// The cluster pass of `scripts/test` (LIFESIGNAL_TEST_ON_POSTGRES=3) runs the rule suites
/// against three brokers; this checks that it really spreads one user's devices over them, so
/// those suites exercise cross-broker delivery rather than one broker on PostgreSQL.
@Suite("The rule suites' cluster spreads devices over brokers",
       .enabled(if: ClusterSpread.brokersPerTest > 1))
struct ClusterSpreadTests {
    @Test func aPersonsDevicesSitOnDifferentBrokersAndSeeTheSameEvents() throws {
        let broker = try BrokerProcess()
        let alice = try Person("Alice", port: broker.port, devices: 3)
        #expect(Set(alice.devices.map(\.port)).count == 3)

        _ = alice.ok(Op.profileUpdate, ["name": "Alice Smith"])
        let received = alice.settle()
        #expect(received.allSatisfy { $0.map(\.seq) == received[0].map(\.seq) })
        #expect(received[0].named(EventName.userUpdated).count == 1)
    }
}
