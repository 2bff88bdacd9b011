import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

extension ClusterDevice {
    /// Entry point for every request of an authenticated device of the cluster (§3, §5): the
    /// engine's plan of the request, carried out against PostgreSQL.
    func route(_ request: Request, from connection: ClientConnection) {
        guard let command = connection.deviceCommand(of: request) else { return }
        switch RequestPlan(command, by: userID, limits: node.configuration.ruleLimits) {
        case .step(let involved, let rules):
            step(request, on: connection, involving: involved, rules)
        case .addContact(let qrCode, let rules):
            addContact(qrCode: qrCode, rules, request, from: connection)
        case .changeNotification(let id, let rule):
            changeNotification(id, request, from: connection, rule)
        case .readAllNotifications(let rule):
            readAllNotifications(request, from: connection, rule)
        case .registerPushToken(let token, let platform):
            registerPushToken(token, platform: platform, request, from: connection)
        case .unregisterPushToken:
            unregisterPushToken(request, from: connection)
        case .read(.contacts):
            let userID = self.userID
            answer(request, on: connection, { try await $0.contactViews(of: userID) }, finish: { contacts in
                .fields(["contacts": .array(contacts.map(\.json))])
            })
        case .read(.devices):
            listDevices(request, from: connection)
        case .read(.notifications(let before, let limit)):
            listNotifications(before: before, limit: limit, request, from: connection)
        }
    }

    /// `contacts.add`: the owner of the QR code, looked up first, is involved in `rules`; unknown
    /// codes count against the user's `failedAddsPerMinute` (§10).
    private func addContact(qrCode: String, _ rules: @escaping @Sendable (String) -> RequestPlan.Rules,
                            _ request: Request, from connection: ClientConnection) {
        let userID = self.userID
        guard let broker = node.broker else { return }
        if let refusal = broker.onLoop({ $0.failedAddsRefusal(for: userID) }) {
            return refuse(request, on: connection, refusal)
        }
        answer(request, on: connection, { executor -> ClusterExecutor.Commit<JSONObject>? in
            guard let ownerID = try await executor.userID(forQRCode: qrCode) else { return nil }
            return try await executor.perform(as: userID, involving: .named([ownerID]), now: WallClock.nowMs(),
                                              rules(ownerID))
        }, finish: { [self, node] commit in
            guard let commit else {
                node.broker?.onLoop { $0.recordFailedAdd(by: userID) }
                return .refused(RequestPlan.unknownQRCode)
            }
            return committed(commit)
        })
    }
}
