/// What a request in flight was, so its response goes to the right handler. Scenarios add theirs
/// from `firstScenarioKind` on.
package enum LoadRequestKind {
    package static let register: UInt8 = 0
    package static let hello: UInt8 = 1
    package static let bye: UInt8 = 2
    package static let keepalive: UInt8 = 3
    /// Set-up links between devices (`ContactPairing`).
    package static let contactsAdd: UInt8 = 4
    /// The run's own keepalive for a device that sent nothing for half the heartbeat
    /// (`ConnectionKeeper`): not a scenario's request, so neither counted nor shown to it.
    package static let connectionKeepalive: UInt8 = 5
    /// Scenario-specific requests (pings, check-ins…) use this and above.
    package static let firstScenarioKind: UInt8 = 16

    /// A request the scenario sends (its keepalives included), not one of the set-up's or the run's own.
    package static func isScenarios(_ kind: UInt8) -> Bool { kind == keepalive || kind >= firstScenarioKind }
}
