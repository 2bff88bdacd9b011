/// The broker's state a scrape samples (`lifesignal_connections` and the other gauges), read on
/// the loop from the registry itself, so no counter kept beside it can drift from it.
public struct BrokerSnapshot: Sendable, Equatable {
    public var connectionsAwaitingHello = 0
    public var connectionsAuthenticating = 0
    /// Devices online on this broker.
    public var connectionsActive = 0
    public var connectionsClosing = 0
    public var usersLoaded = 0
    public var usersLoading = 0
    /// Store submissions not yet completed (`maxPendingWrites` bounds it).
    public var storeBacklog = 0
    public var deadlinesPending = 0
    public var storeRetriesPending = 0
    public var accepting = false
    /// A cluster's pool: connections lent out now, and at most.
    public var postgresLeasesInUse: Int?
    public var postgresPoolSize: Int?
    /// Answers by op and result, and their latencies; nil when metrics are off.
    public var requests: RequestCounts?
}

extension Broker {
    public func snapshot() -> BrokerSnapshot {
        var snapshot = BrokerSnapshot()
        for connection in connections.values {
            switch connection.phase {
            case .awaitingHello: snapshot.connectionsAwaitingHello += 1
            case .authenticating: snapshot.connectionsAuthenticating += 1
            case .active: snapshot.connectionsActive += 1
            case .closing: snapshot.connectionsClosing += 1
            }
        }
        for entry in users.values {
            if case .loaded = entry { snapshot.usersLoaded += 1 } else { snapshot.usersLoading += 1 }
        }
        snapshot.storeBacklog = storeBacklog
        snapshot.deadlinesPending = deadlines?.count ?? 0
        snapshot.storeRetriesPending = storeRetries.count
        snapshot.accepting = isAccepting
        snapshot.requests = requestMetrics?.snapshot
        if let database = cluster?.executor.database {
            snapshot.postgresLeasesInUse = database.leasesInUse
            snapshot.postgresPoolSize = database.url.poolSize
        }
        return snapshot
    }

    /// The devices of `userID` online on this broker (the cluster's other brokers hold their own).
    public func onlineDevices(of userID: String) -> [String] {
        connections.values.compactMap { connection in
            guard case .active = connection.phase, let attachment = connection.attachment,
                  attachment.router.userID == userID else { return nil }
            return attachment.deviceID
        }.sorted()
    }
}
