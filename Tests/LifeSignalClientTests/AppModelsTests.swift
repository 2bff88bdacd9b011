import Foundation
import LifeSignalProtocol
import Testing

@testable import LifeSignalClient

/// The documents as an app keeps them: through any Codable encoder with the broker's fields,
/// identified by their ids, with their times as dates.
@Suite struct AppModelsTests {
    @Test func documentsRoundTripThroughCodableAsTheBrokerSentThem() throws {
        var alice = Fixtures.alice
        alice.lastCheckInAt = 1_763_800_000_123
        alice.alert = AlertInfo(id: "al_1", startedAt: 1_763_800_001_000, message: "fell")
        let notification = Fixtures.notification("n_1", at: 1_763_800_002_000)
        let (encoder, decoder) = (JSONEncoder(), JSONDecoder())
        #expect(try decoder.decode(User.self, from: encoder.encode(alice)) == alice)
        #expect(try decoder.decode(Contact.self, from: encoder.encode(Fixtures.bob)) == Fixtures.bob)
        #expect(try decoder.decode(LifeSignalProtocol.Notification.self, from: encoder.encode(notification)) == notification)
        // The wire's field names, not Swift's.
        let fields = try JSONSerialization.jsonObject(with: encoder.encode(alice)) as? [String: Any]
        #expect(fields?["lastCheckInAt"] as? Int == 1_763_800_000_123 && fields?["qrCode"] as? String == "QRALICE")
    }

    @Test func timesAreDatesAndDocumentsAreIdentifiedAndHashable() {
        var alice = Fixtures.alice
        alice.lastCheckInAt = 1_500
        #expect(alice.lastCheckInDate == Date(timeIntervalSince1970: 1.5))
        #expect(alice.createdDate == Date(timeIntervalSince1970: 1))
        #expect(Fixtures.notification("n_1", at: 2_250).date == Date(timeIntervalSince1970: 2.25))
        #expect(Set([Fixtures.bob, Fixtures.bob, Fixtures.carol]).map(\.id).sorted() == ["u_bob", "u_carol"])
    }
}
