import Foundation
@testable import LifeSignalBroker
import LifeSignalEngine
import LifeSignalFuzzing
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalPush
import LifeSignalRules
import LifeSignalStoreSQLite
import Testing

/// One suite, run unchanged over both stores (`EngineStore`): the embedded SQLite store and the
/// cluster's PostgreSQL. Each test writes through `commit` and reads through the protocol only.
@Suite struct StoreConformanceTests {
    enum Kind: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    @Test(arguments: Kind.allCases)
    func aUserIsFoundByTheirCurrentQRCode(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B")])
            #expect(try await store.qrCodeOwner("qr_A") == QRCodeOwner(id: "u_A", name: "A"))
            #expect(try await store.qrCodeOwner("qr_nobody") == nil)
            var renamed = Self.user("A")
            renamed.name = "Ann"
            renamed.qrCode = "qr_A2"
            try await store.commit([.updateUser(renamed)])
            #expect(try await store.qrCodeOwner("qr_A") == nil)
            #expect(try await store.qrCodeOwner("qr_A2") == QRCodeOwner(id: "u_A", name: "Ann"))
        }
    }

    @Test(arguments: Kind.allCases)
    func aCommitThatFailsChangesNothing(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A")])
            await #expect(throws: (any Error).self) {
                try await store.commit([Self.createUser("C"), Self.createUser("A")])
            }
            #expect(try await store.qrCodeOwner("qr_C") == nil)
            try await store.commit([Self.createUser("C")])
            #expect(try await store.qrCodeOwner("qr_C") == QRCodeOwner(id: "u_C", name: "C"))
        }
    }

    @Test(arguments: Kind.allCases)
    func notificationsArePagedNewestFirstAndStayTheirUsers(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B")])
            let mine = (1...5).map { Self.notification("n\($0)", at: Int64($0)) }
            try await store.commit(mine.map { .insertNotification(userID: "u_A", $0) }
                + [.insertNotification(userID: "u_B", Self.notification("theirs", at: 9))])
            #expect(try await store.notifications(of: "u_A", before: nil, limit: 2, history: 0) == [mine[4], mine[3]])
            #expect(try await store.notifications(of: "u_A", before: "n4", limit: 10, history: 0) == [mine[2], mine[1], mine[0]])
            #expect(try await store.notifications(of: "u_A", before: "n1", limit: 10, history: 0) == [])
            #expect(try await store.notifications(of: "u_A", before: "theirs", limit: 10, history: 0) == nil)
            #expect(try await store.notifications(of: "u_A", before: "unknown", limit: 10, history: 0) == nil)
            #expect(try await store.notification("n3", of: "u_A", history: 0) == mine[2])
            #expect(try await store.notification("theirs", of: "u_A", history: 0) == nil)
            #expect(try await store.notifications(of: "u_C", before: nil, limit: 10, history: 0) == [])
        }
    }

    @Test(arguments: Kind.allCases)
    func readingDeletingAndPruningNotifications(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B")])
            let mine = (1...6).map { Self.notification("n\($0)", at: Int64($0)) }
            try await store.commit(mine.map { .insertNotification(userID: "u_A", $0) }
                + [.insertNotification(userID: "u_B", Self.notification("theirs", at: 9))])
            try await store.commit([.setNotificationRead(id: "n2"), .deleteNotification(id: "n3")])
            #expect(try await store.notification("n2", of: "u_A", history: 0)?.isRead == true)
            #expect(try await store.notification("n3", of: "u_A", history: 0) == nil)
            try await store.commit([.markAllNotificationsRead(userID: "u_A")])
            let page = try #require(try await store.notifications(of: "u_A", before: nil, limit: 10, history: 0))
            #expect(page.map(\.id) == ["n6", "n5", "n4", "n2", "n1"] && page.allSatisfy(\.isRead))
            #expect(try await store.notification("theirs", of: "u_B", history: 0)?.isRead == false)
            try await store.commit([.pruneNotifications(userID: "u_A", keepNewest: 2)])
            #expect(try await store.notifications(of: "u_A", before: nil, limit: 10, history: 0)?.map(\.id) == ["n6", "n5"])
            #expect(try await store.notifications(of: "u_B", before: nil, limit: 10, history: 0)?.map(\.id) == ["theirs"])
        }
    }

    @Test(arguments: Kind.allCases)
    func readsLeaveOutWhatIsPastTheHistoryBeforeItIsPruned(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A")])
            let mine = (1...6).map { Self.notification("n\($0)", at: Int64($0)) }
            try await store.commit(mine.map { .insertNotification(userID: "u_A", $0) })
            #expect(try await store.notifications(of: "u_A", before: nil, limit: 10, history: 4)?.map(\.id)
                        == ["n6", "n5", "n4", "n3"])
            #expect(try await store.notifications(of: "u_A", before: "n4", limit: 10, history: 4)?.map(\.id) == ["n3"])
            #expect(try await store.notifications(of: "u_A", before: "n3", limit: 10, history: 4) == [])
            #expect(try await store.notifications(of: "u_A", before: "n2", limit: 10, history: 4) == nil)
            #expect(try await store.notification("n3", of: "u_A", history: 4) == mine[2])
            #expect(try await store.notification("n2", of: "u_A", history: 4) == nil)
            #expect(try await store.notifications(of: "u_A", before: nil, limit: 10, history: 0)?.count == 6)
            #expect(try await store.notification("n1", of: "u_A", history: 10) == mine[0])
            // Deleting one of the newest brings an older one back into the history.
            try await store.commit([.deleteNotification(id: "n5")])
            #expect(try await store.notification("n2", of: "u_A", history: 4) == mine[1])
        }
    }

    @Test(arguments: Kind.allCases)
    func aNotificationsPushesAreRecordedOnceAndGoWithIt(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B")])
            try await store.commit((1...3).map { .insertNotification(userID: "u_A", Self.notification("n\($0)", at: Int64($0))) }
                + [.insertNotification(userID: "u_B", Self.notification("theirs", at: 9))])
            let pushes = [Self.push("u_A", "n1", token: "t1"), Self.push("u_A", "n1", token: "t2"),
                          Self.push("u_A", "n2", token: "t1"), Self.push("u_A", "n3", token: "t1")]
            try await store.commit(pushes.map { .recordPush($0) } + [.recordPush(pushes[0])])
            try await store.commit([.recordPush(Self.push("u_B", "theirs", token: "t9"))])
            #expect(try await store.pushes(of: "u_A") == pushes)
            try await store.commit([.deleteNotification(id: "n1")])
            #expect(try await store.pushes(of: "u_A") == Array(pushes[2...]))
            try await store.commit([.pruneNotifications(userID: "u_A", keepNewest: 1)])
            #expect(try await store.pushes(of: "u_A") == [pushes[3]])
            #expect(try await store.pushes(of: "u_B") == [Self.push("u_B", "theirs", token: "t9")])
        }
    }

    /// §12: an outcome is kept with its answer, found by its user's `opId` only, and pruned past
    /// both bounds (not among the newest N, and older than the cut) and no further.
    @Test(arguments: Kind.allCases)
    func keptOutcomesAreFoundByOpIDAndPrunedPastBothBounds(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B")])
            let outcomes = (1...5).map { index in
                KeptOutcome(opID: "op-\(index)", op: Op.pingSend,
                            answer: index == 3 ? .refused(ProtocolError(.notFound, "no such contact"))
                                : .ok(["pingId": .string("p\(index)")]),
                            keptAt: Int64(index * 10))
            }
            try await store.commit(outcomes.map { .keepOutcome(userID: "u_A", $0) })
            try await store.commit([.keepOutcome(userID: "u_B", outcomes[0])])
            #expect(try await store.keptOutcome("op-3", of: "u_A") == outcomes[2])
            #expect(try await store.keptOutcome("op-3", of: "u_B") == nil)
            #expect(try await store.keptOutcomes(of: "u_A") == outcomes)

            // The newest 2 stay whatever their age; of the rest, those kept at 30 or later.
            try await store.commit([.pruneKeptOutcomes(userID: "u_A", keepNewest: 2, keptBefore: 30)])
            #expect(try await store.keptOutcomes(of: "u_A") == Array(outcomes[2...]))
            try await store.commit([.pruneKeptOutcomes(userID: "u_A", keepNewest: 2, keptBefore: 1_000)])
            #expect(try await store.keptOutcomes(of: "u_A") == Array(outcomes[3...]))
            #expect(try await store.keptOutcomes(of: "u_B") == [outcomes[0]])
        }
    }

    @Test(arguments: Kind.allCases)
    func anAccountIsItsUserAndTheirSideOfEachRelationship(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B"), Self.createUser("C")])
            let aWatchesB = ContactRecord(userID: "u_A", contactID: "u_B", isResponder: false, isDependent: true,
                                          addedAt: 5, outgoingPing: PendingPing(id: "p_1", sentAt: 6))
            let aAndC = ContactRecord(userID: "u_A", contactID: "u_C", isResponder: true, isDependent: true, addedAt: 7)
            var checkedIn = Self.user("B")
            checkedIn.lastCheckInAt = 8
            checkedIn.checkInDeadline = 3_608
            try await store.commit([.upsertContact(aWatchesB), .upsertContact(aWatchesB.mirrored),
                                    .upsertContact(aAndC), .upsertContact(aAndC.mirrored), .updateUser(checkedIn)])
            let accounts = try await store.accounts(of: ["u_A", "u_B", "u_C", "u_nobody"])
            #expect(accounts == [
                "u_A": Account(user: Self.user("A"), contacts: ["u_B": aWatchesB, "u_C": aAndC]),
                "u_B": Account(user: checkedIn, contacts: ["u_A": aWatchesB.mirrored]),
                "u_C": Account(user: Self.user("C"), contacts: ["u_A": aAndC.mirrored]),
            ])
            try await store.commit([.deleteContact(userID: "u_A", contactID: "u_B"),
                                    .deleteContact(userID: "u_B", contactID: "u_A")])
            #expect(try await store.accounts(of: ["u_A", "u_B"]).mapValues(\.contacts.count) == ["u_A": 1, "u_B": 0])
            // A store keeps what it is given: an upsert replaces every field of the side, its time too.
            let changed = ContactRecord(userID: "u_A", contactID: "u_C", isResponder: false, isDependent: true, addedAt: 9,
                                        outgoingPing: PendingPing(id: "p_2", sentAt: 9))
            try await store.commit([.upsertContact(changed), .upsertContact(changed.mirrored)])
            #expect(try await store.accounts(of: ["u_A", "u_C"]) == [
                "u_A": Account(user: Self.user("A"), contacts: ["u_C": changed]),
                "u_C": Account(user: Self.user("C"), contacts: ["u_A": changed.mirrored]),
            ])
        }
    }

    /// §12, `account.delete`: nothing of the user is left to read, and nothing of anyone else goes.
    @Test(arguments: Kind.allCases)
    func anErasedUserLeavesNothingBehind(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B")])
            let aAndB = ContactRecord(userID: "u_A", contactID: "u_B", isResponder: true, isDependent: false, addedAt: 5,
                                      incomingPing: PendingPing(id: "p_1", sentAt: 6))
            var a = Self.user("A")
            a.checkInDeadline = 100
            let kept = KeptOutcome(opID: "op-1", op: Op.checkIn, answer: .ok([:]), keptAt: 7)
            let everything: [StoreChange] = [
                .upsertContact(aAndB), .upsertContact(aAndB.mirrored), .updateUser(a),
                .upsertDevice(Self.device("u_A", "phone", token: "tA", lastSeenAt: 1)),
                .upsertDevice(Self.device("u_B", "phone", token: "tB", lastSeenAt: 1)),
                .insertNotification(userID: "u_A", Self.notification("nA", at: 1)),
                .insertNotification(userID: "u_B", Self.notification("nB", at: 1)),
                .recordPush(Self.push("u_A", "nA", token: "tA")), .recordPush(Self.push("u_B", "nB", token: "tB")),
                .appendEvent(userID: "u_A", seq: 1, body: ArraySlice(#"{"op":"event"}"#.utf8)),
                .keepOutcome(userID: "u_A", kept), .keepOutcome(userID: "u_B", kept),
            ]
            try await store.commit(everything)
            let bBefore = (try await store.devices(of: "u_B"), try await store.pushes(of: "u_B"),
                           try await store.keptOutcomes(of: "u_B"))

            try await store.commit([.deleteContact(userID: "u_B", contactID: "u_A"), .eraseUser(userID: "u_A")])
            #expect(try await store.accounts(of: ["u_A", "u_B"]) == ["u_B": Account(user: Self.user("B"), contacts: [:])])
            #expect(try await store.qrCodeOwner(Self.user("A").qrCode) == nil)
            #expect(try await store.pendingDeadlines().isEmpty)
            #expect(try await store.devices(of: "u_A").isEmpty)
            #expect(try await store.pushes(of: "u_A").isEmpty)
            #expect(try await store.keptOutcomes(of: "u_A").isEmpty)
            #expect(try await store.notification("nA", of: "u_A", history: 10) == nil)
            #expect(try await store.events(of: "u_A", after: 0, through: 10, maxBytes: 1 << 20) ?? [] == [])
            #expect(try await store.devices(of: "u_B") == bBefore.0)
            #expect(try await store.pushes(of: "u_B") == bBefore.1)
            #expect(try await store.keptOutcomes(of: "u_B") == bBefore.2)
            #expect(try await store.notification("nB", of: "u_B", history: 10) != nil)
            // The device's token is free for whoever registers it next.
            try await store.commit([.movePushToken(token: "tA", to: DeviceKey(userID: "u_B", deviceID: "tablet"),
                                                   platform: nil)])
            #expect(try await store.devices(of: "u_B").map(\.pushToken).contains("tA"))
        }
    }

    /// §12: a device's own credential is kept until revoked (its device goes with it), and a link
    /// code is spent once, by its user, before it expires; a commit that spends it otherwise
    /// changes nothing.
    @Test(arguments: Kind.allCases)
    func deviceCredentialsAndLinkCodes(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B")])
            let tablet = DeviceKey(userID: "u_A", deviceID: "tablet")
            let credential = DeviceCredential(key: tablet, tokenHash: Array(repeating: 7, count: 32), linkedAt: 5)
            try await store.commit([.grantDeviceCredential(credential),
                                    .upsertDevice(Self.device("u_A", "tablet", token: "tT", lastSeenAt: 6)),
                                    .upsertDevice(Self.device("u_A", "phone", token: nil, lastSeenAt: 6))])
            #expect(try await store.deviceCredentials(of: "u_A") == [credential])
            #expect(try await store.deviceCredentials(of: "u_B").isEmpty)
            var renewed = credential
            renewed.tokenHash = Array(repeating: 9, count: 32)
            try await store.commit([.grantDeviceCredential(renewed)])
            #expect(try await store.deviceCredentials(of: "u_A") == [renewed])

            let code = LinkCode(code: "ABCD2345", userID: "u_A", expiresAt: 100)
            try await store.commit([.createLinkCode(code)])
            #expect(try await store.linkCode("ABCD2345") == code)
            let phone = DeviceCredential(key: DeviceKey(userID: "u_A", deviceID: "laptop"), tokenHash: [1], linkedAt: 50)
            // Someone else's, or expired: refused, and the credential in the same commit is not kept.
            for (userID, now) in [("u_B", Int64(50)), ("u_A", Int64(100))] {
                await #expect(throws: LinkCodeNotValid(code: "ABCD2345")) {
                    try await store.commit([.spendLinkCode(code: "ABCD2345", userID: userID, now: now),
                                            .grantDeviceCredential(phone)])
                }
            }
            #expect(try await store.deviceCredentials(of: "u_A") == [renewed])
            try await store.commit([.spendLinkCode(code: "ABCD2345", userID: "u_A", now: 50), .grantDeviceCredential(phone)])
            #expect(try await store.linkCode("ABCD2345") == nil)
            await #expect(throws: LinkCodeNotValid(code: "ABCD2345")) {
                try await store.commit([.spendLinkCode(code: "ABCD2345", userID: "u_A", now: 50)])
            }
            #expect(try await store.deviceCredentials(of: "u_A").map(\.key.deviceID) == ["laptop", "tablet"])

            try await store.commit([.revokeDevice(tablet)])
            #expect(try await store.deviceCredentials(of: "u_A").map(\.key.deviceID) == ["laptop"])
            #expect(try await store.devices(of: "u_A").map(\.key.deviceID) == ["phone"])

            try await store.commit([.createLinkCode(LinkCode(code: "OLD22222", userID: "u_A", expiresAt: 10)),
                                    .createLinkCode(LinkCode(code: "NEW22222", userID: "u_A", expiresAt: 1_000)),
                                    .pruneLinkCodes(now: 10)])
            #expect(try await store.linkCode("OLD22222") == nil)
            #expect(try await store.linkCode("NEW22222") != nil)
            try await store.commit([.eraseUser(userID: "u_A")])
            #expect(try await store.deviceCredentials(of: "u_A").isEmpty)
            #expect(try await store.linkCode("NEW22222") == nil)
        }
    }

    @Test(arguments: Kind.allCases)
    func pendingDeadlinesAreTheUsersNotYetMarkedNonResponsive(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B"), Self.createUser("C")])
            var a = Self.user("A")
            a.checkInDeadline = 100
            var b = Self.user("B")
            b.checkInDeadline = 50
            b.isNonResponsive = true
            try await store.commit([.updateUser(a), .updateUser(b)])
            #expect(try await store.pendingDeadlines() == ["u_A": 100])
            a.isNonResponsive = true
            b.isNonResponsive = false
            try await store.commit([.updateUser(a), .updateUser(b)])
            #expect(try await store.pendingDeadlines() == ["u_B": 50])
        }
    }

    @Test(arguments: Kind.allCases)
    func devicesKeepTheirFieldsAndATokenHasOneHolder(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A"), Self.createUser("B")])
            let phone = Self.device("u_A", "phone", token: "t1", lastSeenAt: 10)
            let tablet = Self.device("u_A", "tablet", token: nil, lastSeenAt: nil)
            try await store.commit([.upsertDevice(tablet), .upsertDevice(phone)])
            #expect(try await store.devices(of: "u_A") == [phone, tablet])
            // The token moves to B's laptop: the phone loses it; the laptop keeps its platform.
            var laptop = Self.device("u_B", "laptop", token: nil, lastSeenAt: 20)
            try await store.commit([.upsertDevice(laptop), .movePushToken(token: "t1", to: laptop.key, platform: nil)])
            laptop.pushToken = "t1"
            var tokenless = phone
            tokenless.pushToken = nil
            #expect(try await store.devices(of: "u_A") == [tokenless, tablet])
            #expect(try await store.devices(of: "u_B") == [laptop])
            // A platform named with the token replaces the stored one.
            try await store.commit([.movePushToken(token: "t2", to: laptop.key, platform: "android")])
            (laptop.pushToken, laptop.platform) = ("t2", "android")
            #expect(try await store.devices(of: "u_B") == [laptop])
            // A rejected token goes only while the device still holds it.
            try await store.commit([.clearPushToken(laptop.key, ifToken: "t1")])
            #expect(try await store.devices(of: "u_B") == [laptop])
            try await store.commit([.clearPushToken(laptop.key, ifToken: "t2")])
            laptop.pushToken = nil
            #expect(try await store.devices(of: "u_B") == [laptop])
            try await store.commit([.movePushToken(token: "t3", to: laptop.key, platform: nil),
                                    .clearPushToken(laptop.key, ifToken: nil)])
            #expect(try await store.devices(of: "u_B") == [laptop])
            try await store.commit([.deleteDevice(tablet.key)])
            #expect(try await store.devices(of: "u_A") == [tokenless])
            // A device the store does not have yet is stored with the token, never seen.
            let watch = DeviceKey(userID: "u_A", deviceID: "watch")
            try await store.commit([.movePushToken(token: "t4", to: watch, platform: nil)])
            #expect(try await store.devices(of: "u_A")
                == [tokenless, DeviceRecord(key: watch, platform: nil, pushToken: "t4", lastSeenAt: nil)])
        }
    }

    @Test(arguments: Kind.allCases)
    func eventsAreReadInSeqOrderUntilPrunedOrTooLarge(_ kind: Kind) async throws {
        try await Self.withStore(kind) { store in
            try await store.commit([Self.createUser("A")])
            let bodies = (1...5).map { Array(#"{"seq":\#($0),"event":"test"}"#.utf8) }
            try await store.commit(bodies.enumerated().map {
                .appendEvent(userID: "u_A", seq: Int64($0.offset + 1), body: $0.element[...])
            })
            #expect(try await store.events(of: "u_A", after: 0, through: 5, maxBytes: 1 << 20) == bodies)
            #expect(try await store.events(of: "u_A", after: 2, through: 4, maxBytes: 1 << 20) == Array(bodies[2...3]))
            #expect(try await store.events(of: "u_A", after: 5, through: 5, maxBytes: 1 << 20) == [])
            let twoFrames = 2 * (4 + bodies[0].count)
            #expect(try await store.events(of: "u_A", after: 0, through: 2, maxBytes: twoFrames) == Array(bodies[0...1]))
            #expect(try await store.events(of: "u_A", after: 0, through: 3, maxBytes: twoFrames) == nil)
            // Asked beyond what was written: not all of it is there.
            #expect(try await store.events(of: "u_A", after: 3, through: 6, maxBytes: 1 << 20) == nil)
            try await store.commit([.pruneEvents(userID: "u_A", throughSeq: 2)])
            #expect(try await store.events(of: "u_A", after: 0, through: 5, maxBytes: 1 << 20) == nil)
            #expect(try await store.events(of: "u_A", after: 2, through: 5, maxBytes: 1 << 20) == Array(bodies[2...]))
        }
    }

    @Test(arguments: Kind.allCases)
    func whatWasCommittedIsThereWhenTheStoreIsOpenedAgain(_ kind: Kind) async throws {
        try await Self.withReopenableStore(kind) { open in
            let first = try await open()
            let phone = Self.device("u_A", "phone", token: "t1", lastSeenAt: 10)
            try await first.commit([Self.createUser("A"), .upsertDevice(phone),
                                    .insertNotification(userID: "u_A", Self.notification("n1", at: 1)),
                                    .appendEvent(userID: "u_A", seq: 1, body: Array(#"{"seq":1}"#.utf8)[...])])
            let again = try await open()
            #expect(try await again.qrCodeOwner("qr_A") == QRCodeOwner(id: "u_A", name: "A"))
            #expect(try await again.devices(of: "u_A") == [phone])
            #expect(try await again.notifications(of: "u_A", before: nil, limit: 10, history: 0) == [Self.notification("n1", at: 1)])
            #expect(try await again.events(of: "u_A", after: 0, through: 1, maxBytes: 1 << 20) == [Array(#"{"seq":1}"#.utf8)])
        }
    }

    /// The same seeded sequence of commits on both stores; after each, every read answers alike.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func bothStoresAnswerAlikeAfterEveryCommitOfASeededRun(seed: UInt64) async throws {
        try await Self.withStore(.sqlite) { sqlite in
            try await Self.withStore(.postgres) { postgres in
                var workload = ChangeWorkload(seed: seed)
                for store in [sqlite, postgres] { try await store.commit(workload.users) }
                for step in 0..<120 {
                    let changes = workload.next()
                    for store in [sqlite, postgres] { try await store.commit(changes) }
                    let everyone = Set(workload.userIDs)
                    #expect(try await postgres.accounts(of: everyone) == (try await sqlite.accounts(of: everyone)),
                            "seed \(seed), step \(step): accounts after \(changes)")
                    #expect(try await postgres.pendingDeadlines() == (try await sqlite.pendingDeadlines()),
                            "seed \(seed), step \(step): deadlines after \(changes)")
                    for userID in workload.userIDs {
                        for history in [0, 3] {
                            let page = try await sqlite.notifications(of: userID, before: nil, limit: 100, history: history)
                            #expect(try await postgres.notifications(of: userID, before: nil, limit: 100, history: history)
                                        == page, "seed \(seed), step \(step): \(userID)'s notifications after \(changes)")
                        }
                        #expect(try await postgres.pushes(of: userID) == (try await sqlite.pushes(of: userID)),
                                "seed \(seed), step \(step): \(userID)'s pushes after \(changes)")
                        #expect(try await postgres.devices(of: userID) == (try await sqlite.devices(of: userID)),
                                "seed \(seed), step \(step): \(userID)'s devices after \(changes)")
                        #expect(try await postgres.keptOutcomes(of: userID) == (try await sqlite.keptOutcomes(of: userID)),
                                "seed \(seed), step \(step): \(userID)'s kept outcomes after \(changes)")
                        let head = workload.heads[userID, default: 0]
                        for after in Set([0, max(0, head - 3)]) {
                            let events = try await sqlite.events(of: userID, after: after, through: head, maxBytes: 1 << 20)
                            #expect(try await postgres.events(of: userID, after: after, through: head, maxBytes: 1 << 20)
                                        == events, "seed \(seed), step \(step): \(userID)'s events after \(after)")
                        }
                    }
                }
            }
        }
    }

    // MARK: - Fixtures

    static func user(_ name: String) -> User {
        User(id: "u_\(name)", name: name, qrCode: "qr_\(name)", checkInIntervalSec: 3_600, createdAt: 0)
    }

    static func createUser(_ name: String) -> StoreChange { .createUser(user(name), tokenHash: [1, 2, 3]) }

    static func notification(_ id: String, at timestamp: Int64) -> LifeSignalProtocol.Notification {
        LifeSignalProtocol.Notification(
            id: id, type: .alert, title: "Title \(id)", message: "Message \(id)", timestamp: timestamp,
            relatedContactID: "u_B", relatedAlertID: "al_\(id)",
            contactData: ContactData(id: "u_B", name: "B", role: .responder, action: .alert),
            alertData: AlertInfo(id: "al_\(id)", startedAt: timestamp, message: "help"))
    }

    static func push(_ userID: String, _ notificationID: String, token: String) -> PushMessage {
        PushMessage(userID: userID, deviceID: "phone", token: token, notificationID: notificationID,
                    body: Array(#"{"message":{"token":"\#(token)"}}"#.utf8), createdAt: 7)
    }

    static func device(_ userID: String, _ deviceID: String, token: String?, lastSeenAt: Int64?) -> DeviceRecord {
        DeviceRecord(key: DeviceKey(userID: userID, deviceID: deviceID), platform: "ios", pushToken: token,
                     lastSeenAt: lastSeenAt)
    }

    /// Runs `body` with a store of `kind` of its own: a fresh directory, or a fresh database.
    static func withStore(_ kind: Kind, _ body: (any EngineStore) async throws -> Void) async throws {
        try await withReopenableStore(kind) { open in try await body(try await open()) }
    }

    /// Runs `body` with `open`, which opens the same store again each time it is called, having
    /// closed the one it opened before (SQLite: the directory; PostgreSQL: the database).
    static func withReopenableStore(_ kind: Kind, _ body: (() async throws -> any EngineStore) async throws -> Void)
        async throws
    {
        switch kind {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("conformance-\(UUID().uuidString.prefix(8))").path
            var opened: SQLiteStore?
            defer {
                opened?.close()
                try? FileManager.default.removeItem(atPath: directory)
            }
            try await body {
                opened?.close()
                opened = try SQLiteStore(directory: directory) { work in work() }
                return opened!
            }
        case .postgres:
            try await TestDatabase.withFresh { url in
                var opened: ClusterDatabase?
                do {
                    try await body {
                        if let database = opened { await database.close() }
                        let database = try await TestDatabase.open(url)
                        opened = database
                        try await database.migrate()
                        return ClusterExecutor(database: database, logger: TestDatabase.logger)
                    }
                } catch {
                    if let database = opened { await database.close() }
                    throw error
                }
                if let database = opened { await database.close() }
            }
        }
    }
}

/// Random commits over three users: notifications in and out, devices and tokens moving, events
/// appended and pruned, relationships made, changed and ended (both sides), check-ins and
/// deadlines; each step's changes valid for the state the previous steps left.
struct ChangeWorkload {
    let userIDs = ["u_A", "u_B", "u_C"]
    private(set) var heads: [String: Int64] = [:]
    private var random: SplitMix64
    private var notificationIDs: [(userID: String, id: String)] = []
    private var counter = 0

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    var users: [StoreChange] { ["A", "B", "C"].map(StoreConformanceTests.createUser) }

    mutating func next() -> [StoreChange] {
        counter += 1
        let userID = userIDs.randomElement(using: &random)!
        switch Int.random(in: 0..<15, using: &random) {
        case 0...2:
            let id = "n\(counter)"
            notificationIDs.append((userID, id))
            let push = PushMessage(userID: userID, deviceID: "d0", token: "t\(Int.random(in: 0..<4, using: &random))",
                                   notificationID: id, body: Array(id.utf8), createdAt: Int64(counter))
            return [.insertNotification(userID: userID, StoreConformanceTests.notification(id, at: Int64(counter))),
                    .recordPush(push)]
        case 3:
            return notificationIDs.randomElement(using: &random).map { [.setNotificationRead(id: $0.id)] } ?? []
        case 4:
            guard let (_, id) = notificationIDs.randomElement(using: &random) else { return [] }
            notificationIDs.removeAll { $0.id == id }
            return [.deleteNotification(id: id)]
        case 5:
            return [.markAllNotificationsRead(userID: userID), .pruneNotifications(userID: userID, keepNewest: 4)]
        case 6:
            let device = DeviceKey(userID: userID, deviceID: "d\(Int.random(in: 0..<3, using: &random))")
            let token = "t\(Int.random(in: 0..<4, using: &random))"
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                return [.upsertDevice(DeviceRecord(key: device, platform: "android", pushToken: nil,
                                                   lastSeenAt: Int64(counter)))]
            case 1:
                return [.movePushToken(token: token, to: device, platform: Bool.random(using: &random) ? "ios" : nil)]
            default:
                return [.clearPushToken(device, ifToken: Bool.random(using: &random) ? token : nil)]
            }
        case 7:
            return [.deleteDevice(DeviceKey(userID: userID, deviceID: "d\(Int.random(in: 0..<3, using: &random))"))]
        case 8:
            let seq = heads[userID, default: 0] + 1
            heads[userID] = seq
            return [.appendEvent(userID: userID, seq: seq, body: Array(#"{"seq":\#(seq)}"#.utf8)[...])]
        case 9:
            let head = heads[userID, default: 0]
            return head > 3 ? [.pruneEvents(userID: userID, throughSeq: head - 3)] : []
        case 10:
            let other = userIDs.filter { $0 != userID }.randomElement(using: &random)!
            let ping = Bool.random(using: &random) ? PendingPing(id: "p\(counter)", sentAt: Int64(counter)) : nil
            let record = ContactRecord(userID: userID, contactID: other, isResponder: Bool.random(using: &random),
                                       isDependent: Bool.random(using: &random), addedAt: Int64(counter),
                                       incomingPing: ping)
            return [.upsertContact(record), .upsertContact(record.mirrored)]
        case 11:
            let other = userIDs.filter { $0 != userID }.randomElement(using: &random)!
            return [.deleteContact(userID: userID, contactID: other), .deleteContact(userID: other, contactID: userID)]
        case 13:
            // Times repeat, so that the prune's order among equal times is compared too.
            let answer: KeptOutcome.Answer = Bool.random(using: &random)
                ? .ok(["n": .int(Int64(counter))]) : .refused(ProtocolError(.forbidden, "no \(counter)"))
            // Punctuation and case, which a locale's collation orders otherwise than bytes do.
            let opID = ["op-\(counter)", "Op:\(counter)", "op.\(counter)", "OP_\(counter)", "op\(counter)"]
                .randomElement(using: &random)!
            return [.keepOutcome(userID: userID, KeptOutcome(opID: opID, op: Op.checkIn, answer: answer,
                                                            keptAt: Int64(counter / 3)))]
        case 14:
            return [.pruneKeptOutcomes(userID: userID, keepNewest: 2, keptBefore: Int64(counter / 4))]
        default:
            var user = StoreConformanceTests.user(String(userID.dropFirst(2)))
            user.lastCheckInAt = Int64(counter)
            user.checkInDeadline = Bool.random(using: &random) ? Int64(counter) + 3_600 : nil
            user.isNonResponsive = Bool.random(using: &random)
            return [.updateUser(user)]
        }
    }
}
