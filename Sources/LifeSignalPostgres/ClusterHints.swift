/// The hints brokers send each other after a commit (ARCHITECTURE.md, "The cluster"): one
/// `pg_notify` per few milliseconds, outside every write transaction, naming users and their new
/// head seqs. A hint only says "read the log"; a lost one is made up by the periodic head check.
package enum ClusterHints {
    package static let channel = "lifesignal_events"
    /// NOTIFY payloads must stay under 8,000 bytes.
    package static let maxPayloadBytes = 7_000

    /// `user:seq` pairs joined by commas, split so that no payload is over the limit.
    package static func payloads(_ heads: [String: Int64]) -> [String] {
        var payloads: [String] = []
        var current = ""
        for (userID, seq) in heads.sorted(by: { $0.key < $1.key }) {
            let pair = "\(userID):\(seq)"
            if !current.isEmpty, current.utf8.count + 1 + pair.utf8.count > maxPayloadBytes {
                payloads.append(current)
                current = ""
            }
            current += current.isEmpty ? pair : "," + pair
        }
        if !current.isEmpty { payloads.append(current) }
        return payloads
    }

    /// The notice that `deviceID` of `userID` connected again elsewhere: `holder`, the broker that
    /// held it, closes its connection there with `replaced` (§3). It names the old holder, not
    /// the new one: a device that moved twice in quick succession must not be cut on its newest
    /// broker by the notice of its first move arriving late.
    package static func replaced(userID: String, deviceID: String, on holder: String) -> String {
        "\(replacedPrefix)\(userID) \(deviceID) \(holder)"
    }

    package static let replacedPrefix = "replaced "

    /// A `replaced` notice's parts (the broker named is the old holder), or nil for a payload of hints.
    package static func parseReplaced(_ payload: String) -> (userID: String, deviceID: String, holder: String)? {
        guard payload.hasPrefix(replacedPrefix) else { return nil }
        let parts = payload.dropFirst(replacedPrefix.count).split(separator: " ", maxSplits: 2)
        guard parts.count == 3 else { return nil }
        return (String(parts[0]), String(parts[1]), String(parts[2]))
    }

    /// The notice that `userID`'s account was deleted: every broker closes the user's devices
    /// with `account_deleted` (§12).
    package static func deleted(userID: String) -> String { "\(deletedPrefix)\(userID)" }

    package static let deletedPrefix = "deleted "

    /// The user a `deleted` notice names, or nil for another payload.
    package static func parseDeleted(_ payload: String) -> String? {
        guard payload.hasPrefix(deletedPrefix) else { return nil }
        let userID = payload.dropFirst(deletedPrefix.count)
        return userID.isEmpty || userID.contains(" ") ? nil : String(userID)
    }

    /// The pairs of a payload; malformed pairs are skipped (a hint is never trusted for more
    /// than "look").
    package static func parse(_ payload: String) -> [(userID: String, seq: Int64)] {
        payload.split(separator: ",").compactMap { pair in
            guard let colon = pair.lastIndex(of: ":"), let seq = Int64(pair[pair.index(after: colon)...]) else {
                return nil
            }
            return (String(pair[..<colon]), seq)
        }
    }
}
