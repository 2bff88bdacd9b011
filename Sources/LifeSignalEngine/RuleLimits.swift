/// The broker's settings that the rules take as arguments (§10): one value, so that every
/// executor hands the rules the same ones.
package struct RuleLimits: Sendable, Equatable {
    /// Contacts per user; `contacts.add` past it is `limit_exceeded` (0: no limit).
    package var maxContacts: Int
    /// The smallest `checkInIntervalSec` a profile may set.
    package var minCheckInIntervalSec: Int64

    package init(maxContacts: Int, minCheckInIntervalSec: Int64) {
        self.maxContacts = maxContacts
        self.minCheckInIntervalSec = minCheckInIntervalSec
    }
}
