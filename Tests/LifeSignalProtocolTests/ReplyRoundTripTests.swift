import LifeSignalProtocol
import Testing

/// A reply as the broker writes it (`Reply.fields`) reads back as the same reply on a device
/// that knows which op it answers (`Reply(answering:fields:)`), through the bytes of a frame.
@Suite struct ReplyRoundTripTests {
    static let user = User(id: "u_1", name: "Ann", qrCode: "QR1", createdAt: 5)
    static let contact = Contact(id: "u_2", name: "Bob", isResponder: true, isDependent: false, addedAt: 7)
    static let notification = Notification(id: "n_1", type: .ping, title: "Ping", message: "Bob pinged you",
                                           timestamp: 1_000, relatedContactID: "u_2", relatedPingID: "p_1")

    /// Every op with an answer of its own, and that answer.
    static let replies: [(op: String, reply: Reply)] = [
        (Op.register, .registered(user, token: "t0k3n")),
        (Op.hello, .hello(HelloResult(session: "s_1", user: user, lastSeq: 41, heartbeatMs: 30_000,
                                      maxFrameBytes: 65_536, serverTime: 1_763_800_000_000, broker: "b_1", version: 2))),
        (Op.hello, .hello(HelloResult(session: "s_1", user: user, lastSeq: 0, heartbeatMs: 1, maxFrameBytes: 2,
                                      serverTime: 0))),
        (Op.keepalive, .serverTime(1_763_800_000_000)),
        (Op.profileUpdate, .user(user)),
        (Op.checkIn, .user(user)),
        (Op.qrRotate, .qrCode("QR2")),
        (Op.qrLookup, .qrCodeOwner(QRCodeOwner(id: "u_2", name: "Bob"))),
        (Op.contactsAdd, .contact(contact)),
        (Op.contactsSetRoles, .contact(contact)),
        (Op.contactsList, .contacts([contact, contact])),
        (Op.devicesList, .devices([DeviceInfo(device: "phone", platform: "ios", hasToken: true, online: false,
                                              lastSeenAt: 3)])),
        (Op.pingSend, .ping(id: "p_1")),
        (Op.alertTrigger, .alert(id: "al_1")),
        (Op.notificationsList, .notifications([notification], unreadCount: 1)),
        (Op.notificationsReadAll, .readAll(count: 4)),
        (Op.deviceLink, .linkCode("ABCD2345", expiresAt: 1_763_800_300_000)),
        (Op.signin, .signedIn(user, deviceToken: "d3v1c3")),
        (Op.register, .registered(user, token: "t0k3n", deviceToken: "d3v1c3")),
    ]

    static let emptyAnswers = [
        Op.bye, Op.contactsRemove, Op.pingRespond, Op.pingClear, Op.alertCancel, Op.notificationsRead, Op.notificationsDelete,
        Op.deviceRegister, Op.deviceUnregister, Op.accountDelete, Op.deviceRevoke,
    ]

    @Test func aReplyReadsBackAsItselfForItsOp() throws {
        for (op, reply) in Self.replies {
            let fields = try #require(try JSONValue.parse(JSONValue.object(reply.fields).serialized()).objectValue)
            #expect(try Reply(answering: op, fields: fields) == reply, "\(op)")
        }
        for op in Self.emptyAnswers {
            #expect(Reply.empty.fields.isEmpty)
            #expect(try Reply(answering: op, fields: [:]) == .empty, "\(op)")
        }
    }

    @Test func everyOpIsAnsweredHere() {
        let covered = Set(Self.replies.map(\.op) + Self.emptyAnswers)
        #expect(Op.all.subtracting(covered).isEmpty)
    }

    @Test func anAnswerWithoutItsFieldsIsRefused() {
        #expect(throws: ProtocolError.badRequest("missing field 'contact'")) {
            try Reply(answering: Op.contactsAdd, fields: [:])
        }
        #expect(throws: ProtocolError.self) { try Reply(answering: Op.notificationsList, fields: ["notifications": []]) }
        #expect(throws: ProtocolError.self) {
            try Reply(answering: Op.notificationsList, fields: ["notifications": [], "unreadCount": -1])
        }
    }
}
