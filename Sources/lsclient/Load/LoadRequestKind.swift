/// What a request in flight was, so its response goes to the right handler. Scenarios add theirs
/// from `firstScenarioKind` on.
enum LoadRequestKind {
    static let register: UInt8 = 0
    static let hello: UInt8 = 1
    static let bye: UInt8 = 2
    static let keepalive: UInt8 = 3
    /// Set-up links between devices (`ContactPairing`).
    static let contactsAdd: UInt8 = 4
    /// Scenario-specific requests (pings, check-ins…) use this and above.
    static let firstScenarioKind: UInt8 = 16
}
