import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol
import LifeSignalRules

extension ClusterDevice {
    /// Entry point for every request of an authenticated device of the cluster (§3, §5): the
    /// engine's plan of the request, carried out against PostgreSQL.
    func route(_ request: Request, from connection: ClientConnection) {
        guard let command = connection.deviceCommand(of: request),
              let opID = connection.operationID(of: request, changingState: command.keepsOutcome)
        else { return }
        let keep = opID.map { ClusterExecutor.OperationKeep(userID: userID, opID: $0, op: request.op) }
        switch RequestPlan(command, by: userID, limits: node.configuration.ruleLimits) {
        case .step(let involved, let rules):
            step(request, on: connection, involving: involved, keeping: keep, rules)
        case .eraseAccount(let rules):
            eraseAccount(request, on: connection, rules)
        case .byQRCode(let qrCode, let use):
            byQRCode(qrCode, use, request, from: connection, keeping: keep)
        case .changeNotification(let id, let rule):
            changeNotification(id, request, from: connection, keeping: keep, rule)
        case .readAllNotifications(let rule):
            readAllNotifications(request, from: connection, keeping: keep, rule)
        case .changePushToken(let change):
            changePushToken(change, request, from: connection, keeping: keep)
        case .linkDevice:
            let now = WallClock.nowMs()
            let link = LinkCode.issue(for: userID, now: now)
            let reply = Reply.linkCode(link.code, expiresAt: link.expiresAt)
            answer(request, on: connection, { try await $0.commit(link.changes, keeping: keep, answer: reply.fields, now: now) },
                   finish: { .ok(reply) })
        case .revokeDevice(let rule):
            revokeDevice(request, from: connection, keeping: keep, rule)
        case .read(.contacts):
            let userID = self.userID
            answer(request, on: connection, { try await $0.contactViews(of: userID) }, finish: { contacts in
                .ok(.contacts(contacts))
            })
        case .read(.devices):
            listDevices(request, from: connection)
        case .read(.notifications(let before, let limit)):
            listNotifications(before: before, limit: limit, request, from: connection)
        }
    }

    /// What a QR code led to, off the loop.
    private enum QRCodeOutcome: Sendable {
        case unknown
        case added(ClusterExecutor.Commit<Reply>)
        case shown(Result<Reply, ProtocolError>)
    }

    /// `contacts.add` and `qr.lookup`: the owner of `qrCode` is looked up first, then `use`d;
    /// unknown codes count against the user's `failedAddsPerMinute` (§10).
    private func byQRCode(_ qrCode: String, _ use: RequestPlan.QRCodeUse, _ request: Request,
                          from connection: ClientConnection, keeping keep: ClusterExecutor.OperationKeep?) {
        let userID = self.userID
        // The quota is the broker's; a broker that is gone is stopping, and still answers.
        guard let broker = node.broker else {
            return refuse(request, on: connection, ProtocolError(.internal, "the broker is stopping"))
        }
        if let refusal = broker.onLoop({ $0.failedAddsRefusal(for: userID) }) {
            return refuse(request, on: connection, refusal)
        }
        answer(request, on: connection, { executor -> QRCodeOutcome in
            switch use.next(after: try await executor.qrCodeOwner(qrCode)) {
            case .unknown:
                return .unknown
            case .step(let ownerID, let rules):
                return .added(try await executor.perform(as: userID, involving: .named([ownerID]),
                                                         now: WallClock.nowMs(), keeping: keep, rules))
            case .answer(let result):
                return .shown(result)
            }
        }, finish: { [self, node] outcome in
            switch outcome {
            case .unknown:
                node.broker?.onLoop { $0.recordFailedAdd(by: userID) }
                return .refused(QRCodeRules.unknown)
            case .added(let commit):
                return committed(commit)
            case .shown(.success(let reply)):
                return .ok(reply)
            case .shown(.failure(let error)):
                return .refused(error)
            }
        })
    }
}

extension ClusterDevice {
    /// `account.delete`: one step on its own, answered, and then every device of the user, on
    /// every broker, closed with `account_deleted`.
    func eraseAccount(_ request: Request, on connection: ClientConnection, _ rules: @escaping RequestPlan.Rules) {
        let userID = self.userID
        answer(request, on: connection, { executor in
            try await executor.perform(as: userID, involving: .allContacts, now: WallClock.nowMs(), keeping: nil, rules)
        }, finish: { [self] commit in
            // Closing waits for the loop's next turn: the answer goes first.
            node.loop.execute { [node] in node.accountDeleted(userID) }
            return committed(commit)
        })
    }
}
