import LifeSignalClient

/// A short text per event, so a test can compare a whole sequence at once.
func summary(_ event: ClientEvent) -> String {
    switch event {
    case .connected(let hello): return "connected \(hello.lastSeq)"
    case .snapshot(let snapshot): return "snapshot \(snapshot.seq)"
    case .event(let seq, let name, _): return "event \(seq) \(name)"
    case .disconnected(let error, let willReconnect):
        return "disconnected \(error?.code ?? "-")" + (willReconnect ? " retrying" : " final")
    case .reconnecting(let attempt, _, let error): return "reconnecting \(attempt) \(error.code)"
    }
}

extension AsyncStream<ClientEvent>.AsyncIterator {
    /// Summaries of the next events, up to and including the first one `last` accepts (or the end).
    mutating func summaries(through last: (ClientEvent) -> Bool) async -> [String] {
        var result: [String] = []
        while let event = await next() {
            result.append(summary(event))
            if last(event) { break }
        }
        return result
    }

    /// Through the `count`-th `connected`.
    mutating func summaries(throughConnected count: Int) async -> [String] {
        var seen = 0
        return await summaries { event in
            if case .connected = event { seen += 1 }
            return seen == count
        }
    }
}
