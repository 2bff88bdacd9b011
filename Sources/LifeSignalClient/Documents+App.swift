import Foundation
import LifeSignalProtocol

// The documents as an app's models (issue 27 item 4): Identifiable, Codable through their wire
// form (`WireCodable`), and their times as `Date`s. The wire's times are milliseconds since 1970.

extension User: Identifiable, WireCodable {
    public var createdDate: Date { Date(milliseconds: createdAt) }
    public var lastCheckInDate: Date? { lastCheckInAt.map(Date.init(milliseconds:)) }
    public var checkInDeadlineDate: Date? { checkInDeadline.map(Date.init(milliseconds:)) }
}

extension Contact: Identifiable, WireCodable {
    public var addedDate: Date { Date(milliseconds: addedAt) }
    public var lastCheckInDate: Date? { lastCheckInAt.map(Date.init(milliseconds:)) }
    public var checkInDeadlineDate: Date? { checkInDeadline.map(Date.init(milliseconds:)) }
    public var incomingPingDate: Date? { incomingPingAt.map(Date.init(milliseconds:)) }
    public var outgoingPingDate: Date? { outgoingPingAt.map(Date.init(milliseconds:)) }
}

extension LifeSignalProtocol.Notification: Identifiable, WireCodable {
    public var date: Date { Date(milliseconds: timestamp) }
}

extension AlertInfo: Identifiable {
    public var startedDate: Date { Date(milliseconds: startedAt) }
}

extension Date {
    /// A wire time: milliseconds since 1970.
    init(milliseconds: Int64) { self.init(timeIntervalSince1970: Double(milliseconds) / 1000) }
}
