import LifeSignalClient
@testable import LifeSignalBroker
import LifeSignalProtocol
import Testing

/// A step over more users than it enters one inside another (`UserSession.maxNestedSessions`)
/// lends and settles each session in turn instead: an alert to that many responders and more
/// reaches every one of them, each account goes back to its own session (their views of the
/// dependent show the alert, then its end), and the cancel, a second such step, runs on them.
@Suite(.timeLimit(.minutes(10)))
struct ManyUsersStepTests {
    @Test func anAlertToMoreRespondersThanAreEnteredNestedReachesEachAndEveryAccountComesBack() async throws {
        let broker = try InProcessBroker()
        defer { broker.stop() }
        let dependent = try await broker.person("Dana")
        var responders: [LifeSignalClient] = []
        for index in 0..<(UserSession.maxNestedSessions + 4) {
            let responder = try await broker.person("Responder \(index)")
            _ = try await responder.phone.addContact(qrCode: dependent.registration.user.qrCode, isResponder: false,
                                                     isDependent: true)
            responders.append(responder.phone)
        }
        let danaID = dependent.registration.user.id

        let alertID = try await dependent.phone.triggerAlert(message: "fell")
        for responder in responders {
            let notifications = try await responder.listNotifications().notifications
            #expect(notifications.contains { $0.type == .alert && $0.relatedAlertID == alertID })
            #expect(try await responder.listContacts().first { $0.id == danaID }?.alert?.id == alertID)
        }

        try await dependent.phone.cancelAlert()
        for responder in responders {
            #expect(try await responder.listNotifications().notifications.contains { $0.type == .alertCancelled })
            #expect(try await responder.listContacts().first { $0.id == danaID }?.hasActiveAlert == false)
            await responder.close()
        }
        await dependent.phone.close()
    }
}
