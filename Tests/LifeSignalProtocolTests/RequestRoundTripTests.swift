import LifeSignalProtocol
import Testing

/// A request as a client writes it (`DeviceCommand.fields`, `Hello.fields`, `Register.fields`)
/// reads back as the same value on the broker (their `init(_:)`): the two directions cannot drift
/// apart.
@Suite struct RequestRoundTripTests {
    static let commands: [DeviceCommand] = [
        .profileUpdate(ProfileUpdate(name: "Ann", phone: .some("+15550100"), checkInIntervalSec: 3_600, push: false,
                                     mutedTypes: [.ping, .checkIn])),
        .profileUpdate(ProfileUpdate(phone: .some(nil))),
        .profileUpdate(ProfileUpdate(push: true)),
        .profileUpdate(ProfileUpdate()),
        .qrRotate,
        .qrLookup(qrCode: "QR123"),
        .deviceRegister(token: "token-1", platform: "ios"),
        .deviceRegister(token: "token-2", platform: nil),
        .deviceUnregister,
        .devicesList,
        .contactsAdd(qrCode: "QR123", isResponder: true, isDependent: false),
        .contactsRemove(contactID: "u_1"),
        .contactsSetRoles(contactID: "u_1", isResponder: false, isDependent: true),
        .contactsList,
        .pingSend(contactID: "u_1"),
        .pingRespond(contactID: "u_2"),
        .pingClear(contactID: "u_3"),
        .checkIn,
        .alertTrigger(message: "help"),
        .alertTrigger(message: nil),
        .alertCancel,
        .accountDelete(confirm: "Ann"),
        .deviceLink,
        .deviceRevoke(device: "tablet"),
        .notificationsList(before: "n_1", limit: 20),
        .notificationsList(before: nil, limit: Validate.notificationPage),
        .notificationsRead(id: "n_1"),
        .notificationsReadAll,
        .notificationsDelete(id: "n_2"),
    ]

    @Test(arguments: commands)
    func aCommandsRequestReadsBackAsTheCommand(_ command: DeviceCommand) throws {
        let request = command.request(rid: 7)
        #expect(request.op == command.op)
        #expect(try DeviceCommand(request) == command)
        // As the bytes a client sends and the broker parses.
        let parsed = try Request.parse(request.json.serialized())
        #expect(try DeviceCommand(parsed) == command)
    }

    @Test func everyDeviceOpHasACommandHere() {
        let sessionOps: Set<String> = [Op.register, Op.hello, Op.signin, Op.keepalive, Op.bye]
        #expect(Set(Self.commands.map(\.op)) == Op.all.subtracting(sessionOps))
    }

    @Test func aPhoneRemovedIsSentAsNullAndAnUntouchedOneNotAtAll() {
        #expect(DeviceCommand.profileUpdate(ProfileUpdate(phone: .some(nil))).fields["phone"] == .null)
        #expect(DeviceCommand.profileUpdate(ProfileUpdate(name: "Ann")).fields["phone"] == nil)
    }

    @Test(arguments: [Hello(userID: "u_1", token: "t0k3n", deviceID: "phone"),
                      Hello(userID: "u_1", token: "t0k3n", deviceID: "phone", platform: "ios", resume: 40),
                      Hello(userID: "u_1", token: "t0k3n", deviceID: "phone", version: ProtocolVersion.v1)])
    func aHelloReadsBackAsItself(_ hello: Hello) throws {
        let request = try Request.parse(Request(op: Op.hello, rid: 1, fields: hello.fields).json.serialized())
        #expect(try Hello(request) == hello)
    }

    @Test(arguments: [Signin(code: "ABCD2345", device: "tablet"), Signin(code: "ABCD2345", device: "tablet", platform: "ios")])
    func aSigninReadsBackAsItself(_ signin: Signin) throws {
        let request = try Request.parse(Request(op: Op.signin, rid: 1, fields: signin.fields).json.serialized())
        #expect(try Signin(request) == signin)
    }

    @Test(arguments: [Register(name: "Ann"), Register(name: "Ann", phone: "+15550100"),
                      Register(name: "Ann", device: "phone", platform: "ios")])
    func aRegisterReadsBackAsItself(_ register: Register) throws {
        let request = try Request.parse(Request(op: Op.register, rid: 1, fields: register.fields).json.serialized())
        #expect(try Register(request) == register)
    }

    @Test func aHelloOfAnotherVersionIsRefusedForABadFieldFirst() {
        var fields = Hello(userID: "u_1", token: "t0k3n", deviceID: "phone").fields
        fields["version"] = .int(ProtocolVersion.v1_2 + 1)
        #expect(throws: ProtocolError(.unsupportedVersion, "this broker speaks versions 1 and 2")) {
            try Hello(Request(op: Op.hello, fields: fields))
        }
        fields["device"] = .string("")
        #expect { try Hello(Request(op: Op.hello, fields: fields)) } throws: { error in
            (error as? ProtocolError)?.code == .badRequest
        }
    }
}
