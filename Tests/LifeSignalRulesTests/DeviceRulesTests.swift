import LifeSignalProtocol
import LifeSignalRules
import LifeSignalTesting
import Testing

/// §5 and §12: `device.register`, `device.unregister`, `device.revoke` and `signin` as plain
/// functions of the user's devices.
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

    // The phone holds "fcm-phone"; the tablet none.
    private static let pushTokens = ["phone": "fcm-phone"]

    private static func changePushToken(_ change: PushTokenChange, of deviceID: String, pushTokens: [String: String] = pushTokens)
        throws -> Step
    {
        var step = RuleFixtures.aliceWatchesBob()
        #expect(try DeviceRules.changePushToken(change, of: deviceID, of: "u_Alice", devices: Self.devices,
                                                pushTokens: pushTokens, in: &step) == .empty)
        return step
    }

    /// The one change and the `devices.changed` the step holds, or nil (recorded).
    private static func toldChange(_ step: Step) -> (RuleChange, EventData)? {
        guard step.effects.count == 2, case .store(let change) = step.effects[0],
              case .event(userID: "u_Alice", EventName.devicesChanged, let data) = step.effects[1] else {
            Issue.record("one change and the devices told: \(step.effects)")
            return nil
        }
        return (change, data)
    }

    @Test func aRegisteredTokenIsStoredAndTheDevicesAreToldItHasOne() throws {
        let step = try Self.changePushToken(.register(token: "fcm-tablet", platform: "android"), of: "tablet")
        guard let (change, data) = Self.toldChange(step) else { return }
        #expect(change == .movePushToken(token: "fcm-tablet", userID: "u_Alice", deviceID: "tablet", platform: "android"))
        var tablet = Self.devices[1]
        tablet.hasToken = true
        tablet.platform = "android"
        #expect(data == Event.devicesChanged([Self.devices[0], tablet], revoked: nil).data)
    }

    @Test func aTokenTakenFromAnotherOfTheUsersDevicesLeavesThatOneWithout() throws {
        let step = try Self.changePushToken(.register(token: "fcm-phone", platform: nil), of: "tablet")
        guard let (_, data) = Self.toldChange(step) else { return }
        var (phone, tablet) = (Self.devices[0], Self.devices[1])
        phone.hasToken = false
        tablet.hasToken = true
        #expect(data == Event.devicesChanged([phone, tablet], revoked: nil).data)
    }

    @Test func aNewTokenIsToldThoughTheListingLooksTheSame() throws {
        let step = try Self.changePushToken(.register(token: "fcm-phone-2", platform: nil), of: "phone")
        guard let (change, data) = Self.toldChange(step) else { return }
        #expect(change == .movePushToken(token: "fcm-phone-2", userID: "u_Alice", deviceID: "phone", platform: nil))
        #expect(data == Event.devicesChanged(Self.devices, revoked: nil).data)
    }

    /// A register that names no platform keeps the device's; one that names it replaces it.
    @Test func aRegisterKeepsThePlatformUnlessItNamesOne() throws {
        var devices = Self.devices
        devices[0].platform = "ios"
        for (named, expected) in [(nil, "ios"), ("android", "android")] as [(String?, String)] {
            var step = RuleFixtures.aliceWatchesBob()
            _ = try DeviceRules.changePushToken(.register(token: "fcm-new", platform: named), of: "phone", of: "u_Alice",
                                                devices: devices, pushTokens: Self.pushTokens, in: &step)
            guard let (change, data) = Self.toldChange(step) else { return }
            #expect(change == .movePushToken(token: "fcm-new", userID: "u_Alice", deviceID: "phone", platform: named))
            var phone = devices[0]
            phone.platform = expected
            #expect(data == Event.devicesChanged([phone, devices[1]], revoked: nil).data)
        }
    }

    @Test func anUnregisteredTokenIsClearedAndTold() throws {
        let step = try Self.changePushToken(.unregister, of: "phone")
        guard let (change, data) = Self.toldChange(step) else { return }
        #expect(change == .clearPushToken(userID: "u_Alice", deviceID: "phone"))
        var phone = Self.devices[0]
        phone.hasToken = false
        #expect(data == Event.devicesChanged([phone, Self.devices[1]], revoked: nil).data)
    }

    @Test func theTokenAndPlatformTheDeviceHasChangeNothing() throws {
        #expect(try Self.changePushToken(.register(token: "fcm-phone", platform: nil), of: "phone").effects.isEmpty)
        #expect(try Self.changePushToken(.unregister, of: "tablet").effects.isEmpty)
        // Another platform alone is a change.
        let step = try Self.changePushToken(.register(token: "fcm-phone", platform: "ios"), of: "phone")
        guard let (_, data) = Self.toldChange(step) else { return }
        var phone = Self.devices[0]
        phone.platform = "ios"
        #expect(data == Event.devicesChanged([phone, Self.devices[1]], revoked: nil).data)
    }

    @Test func aDeviceTheUserDoesNotHaveIsRefused() {
        var step = RuleFixtures.aliceWatchesBob()
        #expect(throws: ProtocolError(.internal, "device is not stored")) {
            try DeviceRules.changePushToken(.unregister, of: "laptop", of: "u_Alice", devices: Self.devices,
                                            pushTokens: Self.pushTokens, in: &step)
        }
        #expect(step.effects.isEmpty)
    }

    @Test func aTokenTheBrokerRemovesIsToldAsAnUnregister() throws {
        var step = RuleFixtures.aliceWatchesBob()
        #expect(DeviceRules.removePushToken(of: "phone", of: "u_Alice", ifToken: "fcm-phone", devices: Self.devices,
                                            pushTokens: Self.pushTokens, in: &step) == .removed)
        let unregistered = try Self.changePushToken(.unregister, of: "phone")
        guard let (change, data) = Self.toldChange(step), let (expectedChange, expectedData) = Self.toldChange(unregistered)
        else { return }
        #expect(change == expectedChange)
        #expect(data == expectedData)
    }

    @Test func aTokenTheDeviceNoLongerHoldsOrAnUnknownDeviceIsLeftAlone() {
        var step = RuleFixtures.aliceWatchesBob()
        // The phone registered another token while the push to this one was refused.
        #expect(DeviceRules.removePushToken(of: "phone", of: "u_Alice", ifToken: "fcm-old", devices: Self.devices,
                                            pushTokens: Self.pushTokens, in: &step) == .noToken)
        #expect(DeviceRules.removePushToken(of: "tablet", of: "u_Alice", ifToken: nil, devices: Self.devices,
                                            pushTokens: Self.pushTokens, in: &step) == .noToken)
        #expect(DeviceRules.removePushToken(of: "laptop", of: "u_Alice", ifToken: nil, devices: Self.devices,
                                            pushTokens: Self.pushTokens, in: &step) == .unknownDevice)
        #expect(step.effects.isEmpty)
    }
}
