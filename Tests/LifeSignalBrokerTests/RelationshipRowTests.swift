@testable import LifeSignalBroker
import LifeSignalFuzzing
import LifeSignalRules
import LifeSignalStoreSQLite
import Testing

/// Either side's record of a relationship names the same stored row with the same values, and the
/// row gives each side back its own record.
@Suite("Relationship rows")
struct RelationshipRowTests {
    @Test func bothSidesAreOneRow() {
        var random = SplitMix64(seed: 0x5E1A7E)
        let ids = ["u_a", "u_b", "u_\u{E9}", "u_z", "u_e\u{301}", "u_aa"]
        for _ in 0..<1_000 {
            let userID = ids[Int(random.next() % UInt64(ids.count))]
            var contactID = userID
            while contactID.utf8.elementsEqual(userID.utf8) { contactID = ids[Int(random.next() % UInt64(ids.count))] }
            let ping = { (random: inout SplitMix64) -> PendingPing? in
                random.next() % 2 == 0 ? nil : PendingPing(id: "p_\(random.next() % 100)", sentAt: Int64(random.next() % 1_000))
            }
            let mine = ContactRecord(userID: userID, contactID: contactID, isResponder: random.next() % 2 == 0,
                                     isDependent: random.next() % 2 == 0, addedAt: Int64(random.next() % 1_000),
                                     incomingPing: ping(&random), outgoingPing: ping(&random))
            let theirs = ContactRecord(userID: contactID, contactID: userID, isResponder: mine.isDependent,
                                       isDependent: mine.isResponder, addedAt: mine.addedAt,
                                       incomingPing: mine.outgoingPing, outgoingPing: mine.incomingPing)
            let row = RelationshipRow(mine)
            #expect(RelationshipRow(theirs) == row)
            #expect(row.record(for: userID) == mine)
            #expect(row.record(for: contactID) == theirs)
            #expect(row.lowID.utf8.lexicographicallyPrecedes(row.highID.utf8))
            #expect(RelationshipRow.ends(userID, contactID) == RelationshipRow.ends(contactID, userID))
        }
    }
}
