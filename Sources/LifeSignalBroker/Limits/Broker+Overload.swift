extension Broker {
    /// The last line of an overload (OverloadEpisode), checked by the sweep rather than at every
    /// change: a load hovering at a limit makes at most one begin and one end per sweep interval.
    /// Eased means the backlog at half of `maxPendingWrites`, or a tenth of the connections gone.
    func endEasedOverloads() {
        let now = loop.cachedNowMs
        if storeBacklog <= configuration.maxPendingWrites / 2, let ended = backlogOverload.end(nowMs: now) {
            logger.info("overload ends: store backlog drained", metadata: [
                "lifesignal.backlog": .stringConvertible(storeBacklog), "lifesignal.overload.ms": .stringConvertible(ended.durationMs),
                "lifesignal.refused": .stringConvertible(ended.refused),
            ])
        }
        if connections.count <= maxConnections - max(1, maxConnections / 10),
           let ended = connectionOverload.end(nowMs: now) {
            logger.info("overload ends: below max-connections", metadata: [
                "lifesignal.connections": .stringConvertible(connections.count), "lifesignal.overload.ms": .stringConvertible(ended.durationMs),
                "lifesignal.refused": .stringConvertible(ended.refused),
            ])
        }
    }
}
