import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

extension UserSession {
    /// `notifications.list`: newest first, `limit` 1–100, `before` an id (exclusive). Pages
    /// inside the in-memory window are answered at once; older ones come from the store.
    func listNotifications(before beforeID: String?, limit: Int, _ request: Request,
                           from connection: ClientConnection) {
        // Past the history (§10), though not pruned yet: gone, as on a cluster.
        if let beforeID, !notifications.ledger.isVisible(id: beforeID) {
            return connection.respond(error: .notFound("no such notification"), rid: request.rid)
        }
        if let page = notifications.page(before: beforeID, limit: limit) {
            return connection.respond(rid: request.rid, notificationPage(page))
        }
        let history = notifications.ledger.limit
        afterQuery(.notifications(userID: userID, beforeID: beforeID, limit: limit, history: history), for: request,
                   from: connection) { session, answer in
            guard case .notifications(let stored?) = answer else {
                return connection.respond(error: .notFound("no such notification"), rid: request.rid)
            }
            let page = stored.compactMap(session.current).filter { session.notifications.ledger.isVisible(id: $0.id) }
            connection.respond(rid: request.rid, session.notificationPage(page))
        }
    }

    private func notificationPage(_ page: [Notification]) -> Reply {
        .notifications(page, unreadCount: Int64(notifications.unreadCount))
    }

    /// A stored notification as it is now: a later change in memory wins over what was read.
    private func current(_ stored: Notification) -> Notification? {
        if let inWindow = notifications.notification(id: stored.id) { return inWindow }
        if let known = olderNotifications[stored.id] { return known }
        var result = stored
        if stored.timestamp <= readAllCutoff { result.isRead = true }
        return result
    }

    /// `notifications.read` or `.delete`: `rule` over the user's notification `id`.
    func changeNotification(_ id: String, _ request: Request, from connection: ClientConnection,
                            _ rule: @escaping RequestPlan.NotificationRule) {
        withNotification(id, request, from: connection) { (session, notification, mutation) throws(ProtocolError) in
            try session.runNotificationRules(about: notification, &mutation) { (step) throws(ProtocolError) in
                try rule(notification, &step)
            }
        }
    }

    /// `notifications.readAll`: `rule` over the unread ones of the history.
    func readAllNotifications(_ mutation: inout Mutation, _ rule: (Int, inout Step) -> Reply) -> Reply {
        let unread = notifications.unreadCount
        return runNotificationRules(about: nil, &mutation) { step in rule(unread, &step) }
    }

    /// Runs notification rules, which change only what the user has beyond their account, and
    /// carries out their effects: in the window kept in memory, in the transaction, to the devices.
    private func runNotificationRules<Failure: Error>(
        about notification: Notification?, _ mutation: inout Mutation,
        _ rules: (inout Step) throws(Failure) -> Reply
    ) throws(Failure) -> Reply {
        var step = Step(now: mutation.now, accounts: [], ids: RandomIDs())
        let result = try rules(&step)
        for effect in step.effects {
            switch effect {
            case .store(let change):
                remember(change, about: notification, now: mutation.now)
                mutation.changes.append(StoreChange(change))
            case .event(_, let name, let data):
                emit(name, data, into: &mutation)
            case .notification:
                break  // notification rules make none
            }
        }
        return result
    }

    /// What the window in memory (and the older notifications read from the store) make of a
    /// change to the user's notifications.
    private func remember(_ change: RuleChange, about notification: Notification?, now: Int64) {
        switch change {
        case .setNotificationRead(let id):
            notifications.markRead(id: id, wasUnread: true)
            if var updated = notification {
                updated.isRead = true
                rememberOlder(updated)
            }
        case .deleteNotification(let id):
            notifications.remove(id: id, wasUnread: notification?.isRead == false)
            olderNotifications[id] = .some(nil)
        case .markAllNotificationsRead:
            notifications.markAllRead()
            for (id, known) in olderNotifications {
                if var notification = known {
                    notification.isRead = true
                    olderNotifications[id] = notification
                }
            }
            readAllCutoff = now
        case .updateUser, .upsertContact, .deleteContact, .eraseUser, .revokeDevice, .spendLinkCode, .grantDeviceCredential,
             .movePushToken, .clearPushToken:
            break  // not a notification's: carried out with the step's accounts, or by the device rules
        }
    }

    private func rememberOlder(_ notification: Notification) {
        if notifications.notification(id: notification.id) == nil { olderNotifications[notification.id] = notification }
    }

    typealias NotificationChange = @Sendable (isolated UserSession, Notification, inout Mutation) throws(ProtocolError)
        -> Reply

    /// Runs `rules` on the caller's notification `id`, reading it from the store first
    /// when it is older than the window. Someone else's id is `not_found`, like an unknown one.
    private func withNotification(_ id: String, _ request: Request, from connection: ClientConnection,
                                  _ rules: @escaping NotificationChange) {
        let apply: @Sendable (isolated UserSession, Notification?) -> Void = { session, found in
            session.perform(request, from: connection) { (mutation) throws(ProtocolError) in
                // Pruned meanwhile (a read from the store may predate it), or past the history: gone.
                guard let notification = found, session.notifications.ledger.isVisible(id: notification.id) else {
                    throw .notFound("no such notification")
                }
                return try rules(session, notification, &mutation)
            }
        }
        if let inWindow = notifications.notification(id: id) { return apply(self, inWindow) }
        if let known = olderNotifications[id] { return apply(self, known) }
        afterQuery(.notification(userID: userID, id: id, history: notifications.ledger.limit), for: request, from: connection) { session, answer in
            guard case .notification(let stored) = answer else { return apply(session, nil) }
            // A request that ran meanwhile may have changed it: memory wins over the read.
            apply(session, stored.flatMap(session.current))
        }
    }
}
