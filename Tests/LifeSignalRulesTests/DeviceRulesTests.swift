import LifeSignalProtocol
import LifeSignalRules
import LifeSignalTesting
import Testing

/// §12 `device.revoke` as a plain function of the user's devices.
@Suite struct DeviceRulesTests {
    private static let devices = [
        DeviceInfo(device: "phone", hasToken: true, online: true, linkedAt: 1, hasCredential: true),
        DeviceInfo(device: "tablet", hasToken: false, online: false, linkedAt: 2, hasCredential: true),
    ]

    @Test func theDeviceGoesAndTheUsersDevicesAreToldWhichRemain() throws {
        var step = RuleFixtures.aliceWatchesBob()
        #expect(try DeviceRules.revoke("tablet", of: "u_Alice", devices: Self.devices, in: &step) == .empty)
        guard step.effects.count == 2, case .store(.revokeDevice(userID: "u_Alice", deviceID: "tablet")) = step.effects[0],
              case .event(userID: "u_Alice", EventName.devicesChanged, let data) = step.effects[1] else {
            Issue.record("one change and one event: \(step.effects)")
            return
        }
        #expect(data == Event.devicesChanged([Self.devices[0]], revoked: "tablet").data)
    }

    @Test func anUnknownDeviceIsNotFoundAndChangesNothing() {
        var step = RuleFixtures.aliceWatchesBob()
        #expect(throws: ProtocolError.notFound("no such device")) {
            try step.run { (step) throws(ProtocolError) in
                try DeviceRules.revoke("laptop", of: "u_Alice", devices: Self.devices, in: &step)
            }
        }
        #expect(step.effects.isEmpty)
    }

    @Test func aSignInSpendsTheCodeGrantsTheCredentialAndListsTheDevice() throws {
        var step = RuleFixtures.aliceWatchesBob()
        let user = try DeviceRules.signIn("laptop", of: "u_Alice", code: "ABCD2345", tokenHash: [1, 2], devices: Self.devices,
                                          in: &step)
        #expect(user.id == "u_Alice")
        guard step.effects.count == 3,
              case .store(.spendLinkCode(code: "ABCD2345", userID: "u_Alice", now: step.now)) = step.effects[0],
              case .store(.grantDeviceCredential(userID: "u_Alice", deviceID: "laptop", tokenHash: [1, 2],
                                                 linkedAt: step.now)) = step.effects[1],
              case .event(userID: "u_Alice", EventName.devicesChanged, let data) = step.effects[2] else {
            Issue.record("the code spent, the credential granted, the devices told: \(step.effects)")
            return
        }
        let laptop = DeviceInfo(device: "laptop", hasToken: false, online: false, linkedAt: step.now, hasCredential: true)
        #expect(data == Event.devicesChanged([laptop] + Self.devices, revoked: nil).data)
    }
}
