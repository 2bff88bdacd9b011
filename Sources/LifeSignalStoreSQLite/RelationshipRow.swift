import LifeSignalRules
/// The one stored row of a relationship (schema v7), of which each side's `ContactRecord` is a
/// view. Its ends are ordered by the bytes of their ids, as SQLite compares them, and its fields
/// are the low end's view, so both sides' records name the same row and write the same values.
package struct RelationshipRow: Equatable {
    package var lowID: String
    package var highID: String
    /// The high end watches over the low end: it is the low end's responder.
    package var highWatchesLow: Bool
    package var lowWatchesHigh: Bool
    package var addedAt: Int64
    package var pingToLow: PendingPing?
    package var pingToHigh: PendingPing?

    package init(_ record: ContactRecord) {
        let low = Self.isLow(record.userID, beside: record.contactID) ? record : record.mirrored
        lowID = low.userID
        highID = low.contactID
        highWatchesLow = low.isResponder
        lowWatchesHigh = low.isDependent
        addedAt = low.addedAt
        pingToLow = low.incomingPing
        pingToHigh = low.outgoingPing
    }

    /// What `userID`, one of the ends, sees of the other.
    package func record(for userID: String) -> ContactRecord {
        let low = ContactRecord(userID: lowID, contactID: highID, isResponder: highWatchesLow,
                                isDependent: lowWatchesHigh, addedAt: addedAt, incomingPing: pingToLow,
                                outgoingPing: pingToHigh)
        return userID.utf8.elementsEqual(lowID.utf8) ? low : low.mirrored
    }

    /// The two ids, the one whose UTF-8 bytes sort first (SQLite's BINARY collation) first.
    package static func ends(_ one: String, _ other: String) -> (low: String, high: String) {
        isLow(one, beside: other) ? (one, other) : (other, one)
    }

    /// Compared as bytes: two ids that differ only in Unicode normalization are `==` as Strings.
    private static func isLow(_ id: String, beside other: String) -> Bool {
        id.utf8.lexicographicallyPrecedes(other.utf8)
    }
}
