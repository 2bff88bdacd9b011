@testable import LifeSignalRules
import LifeSignalProtocol
import LifeSignalTesting
import Testing

/// §5 profile.update and qr.rotate as plain functions: who hears of a change.
@Suite struct ProfileRulesTests {
    /// The update a `profile.update` with `fields` asks for.
    private func request(_ fields: JSONObject) throws -> ProfileUpdate {
        guard case .profileUpdate(let change) = try DeviceCommand(Request(op: Op.profileUpdate, rid: 1, fields: fields))
        else { throw ProtocolError(.internal, "not a profile.update") }
        return change
    }

    @Test func aNameChangeIsShownToEveryContact() throws {
        var step = RuleFixtures.aliceWatchesBob()
        _ = try ProfileRules.update(by: "u_Alice", try request(["name": "Al"]), minCheckInIntervalSec: 60, in: &step)
        #expect(step.events(of: "u_Alice") == [EventName.userUpdated])
        #expect(step.contactUpdates(of: "u_Bob").map(\.name) == ["Al"])
    }

    @Test func anIntervalChangeIsShownOnlyToThoseWhoWatch() throws {
        var step = RuleFixtures.aliceWatchesBob(bobCheckedInAt: RuleFixtures.now - 1_000)
        _ = try ProfileRules.update(by: "u_Bob", try request(["checkInIntervalSec": 7_200]), minCheckInIntervalSec: 60,
                                    in: &step)
        #expect(step.contactUpdates(of: "u_Alice").last?.checkInDeadline == RuleFixtures.now - 1_000 + 7_200_000)
        var other = RuleFixtures.aliceWatchesBob(bobCheckedInAt: RuleFixtures.now - 1_000)
        _ = try ProfileRules.update(by: "u_Alice", try request(["checkInIntervalSec": 7_200]), minCheckInIntervalSec: 60,
                                    in: &other)
        #expect(other.contactUpdates(of: "u_Bob").isEmpty)
    }

    @Test func anInvalidFieldChangesNothing() throws {
        var step = RuleFixtures.aliceWatchesBob()
        #expect(throws: ProtocolError.self) {
            try ProfileRules.update(by: "u_Alice", try request(["name": "Al", "checkInIntervalSec": 1]),
                                    minCheckInIntervalSec: 60, in: &step)
        }
        #expect(step.effects.isEmpty)
        #expect(step.accounts["u_Alice"]?.user.name == "Alice")
    }

    @Test func preferencesChangeOnlyWhatIsGiven() throws {
        var step = RuleFixtures.aliceWatchesBob()
        _ = try ProfileRules.update(by: "u_Alice", try request(["preferences": ["mutedTypes": ["ping", "ping"]]]),
                                    minCheckInIntervalSec: 60, in: &step)
        let preferences = try #require(step.accounts["u_Alice"]?.user.preferences)
        #expect(preferences.mutedTypes == [.ping])
        #expect(preferences.push == Preferences().push)
        #expect(throws: ProtocolError.self) { try request(["preferences": ["mutedTypes": ["nonsense"]]]) }
    }

    @Test func aRotatedCodeIsNotShownToContacts() throws {
        var step = RuleFixtures.aliceWatchesBob()
        let reply = try ProfileRules.rotateQRCode(of: "u_Alice", in: &step)
        #expect(reply == .qrCode(try #require(step.accounts["u_Alice"]?.user.qrCode)))
        #expect(step.contactUpdates(of: "u_Bob").isEmpty)
    }
}
