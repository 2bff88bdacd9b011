import LifeSignalProtocol

/// The building blocks every rule is made of: each changes this user's memory, records the
/// durable change and emits the event, in one `Mutation`.
extension UserSession {
    /// Stores this user's side of a relationship; `contact.updated` to their devices.
    func saveLink(_ link: ContactLink, into mutation: inout Mutation) {
        contacts[link.record.contactID] = link
        mutation.changes.append(.upsertContact(link.record))
        emit(EventName.contactUpdated, ["contact": view(of: link).json], into: &mutation)
    }

    /// What this user sees of a contact (§4). The mirrored fields are derived from the contact's
    /// own document: the live one while the contact is loaded, else the one the store had.
    func view(of link: ContactLink) -> Contact {
        link.document(showing: mirror(of: link))
    }

    /// The contact's own document as it is now, as far as this user's view of it goes.
    func mirror(of link: ContactLink) -> ContactMirror {
        session(of: link.record.contactID)?.assumeIsolated { ContactMirror(of: $0.user) } ?? link.lastKnown
    }

    /// Both sides of this user's relationship with `contactID`, for rules that change them together.
    func bothSides(of contactID: String) throws(ProtocolError) -> Relationship {
        guard let other = session(of: contactID), let mine = contacts[contactID],
              let theirs = other.assumeIsolated({ $0.contacts[userID] }) else { throw .notFound("no such contact") }
        return Relationship(other: other, mine: mine, theirs: theirs)
    }

    /// Stores both sides; `contact.updated` to both users' devices.
    func save(_ relationship: Relationship, into mutation: inout Mutation) {
        saveLink(relationship.mine, into: &mutation)
        relationship.other.assumeIsolated { $0.saveLink(relationship.theirs, into: &mutation) }
    }

    /// Deletes this user's side of a relationship; `contact.removed` to their devices.
    func dropLink(to contactID: String, into mutation: inout Mutation) {
        contacts[contactID] = nil
        mutation.changes.append(.deleteContact(userID: userID, contactID: contactID))
        emit(EventName.contactRemoved, ["contactId": .string(contactID)], into: &mutation)
    }

    /// This user's contact `contactID` changed their own document from `before` to `after`: the
    /// link keeps the new one, and where the view changed, `contact.updated` to this user's devices.
    func contactChanged(_ contactID: String, from before: ContactMirror, to after: ContactMirror,
                        into mutation: inout Mutation) {
        guard var link = contacts[contactID] else { return }
        link.lastKnown = after
        contacts[contactID] = link
        let shown = link.document(showing: after)
        if shown != link.document(showing: before) {
            emit(EventName.contactUpdated, ["contact": shown.json], into: &mutation)
        }
    }

    /// Stores a notification for this user, announces it to their devices and pushes it to
    /// their offline ones (§5, §7).
    func notify(
        _ type: NotificationType, _ message: String, about contactID: String, named name: String,
        role: ContactRole, alert: AlertInfo? = nil, pingID: String? = nil, into mutation: inout Mutation
    ) {
        let notification = Notification(
            id: Credentials.newID(prefix: "n"), type: type, title: type.title, message: message,
            timestamp: mutation.now, isRead: false, relatedContactID: contactID, relatedAlertID: alert?.id,
            relatedPingID: pingID, contactData: ContactData(id: contactID, name: name, role: role, action: type.action),
            alertData: alert)
        notifications.add(notification)
        mutation.changes.append(.insertNotification(userID: userID, notification))
        pruneNotificationHistoryIfDue(into: &mutation)
        emit(EventName.notificationAdded, ["notification": notification.json], into: &mutation)
        queuePushes(of: notification, into: &mutation)
    }

    /// This user's responders: the contacts who watch over them.
    var responderIDs: Set<String> { Set(contacts.values.filter(\.record.isResponder).map(\.record.contactID)) }

    /// This user's document changed from `before` to `after`: every loaded contact keeps the new
    /// one, and those whose view changed hear of it. Contacts who may see the change (all of them
    /// for a name, responders for the check-in and alert fields) are loaded by the request first.
    func showChange(from before: ContactMirror, to after: ContactMirror, into mutation: inout Mutation) {
        guard before != after else { return }
        let audience = before.name != after.name ? Set(contacts.keys) : responderIDs
        for contactID in contacts.keys.sorted() {
            guard let contact = session(of: contactID) else {
                assert(!audience.contains(contactID), "a contact who sees this change was not loaded")
                continue
            }
            contact.assumeIsolated { $0.contactChanged(userID, from: before, to: after, into: &mutation) }
        }
    }
}

/// A relationship seen from both ends: the other user's session, this user's link to them and theirs back.
struct Relationship {
    let other: UserSession
    var mine: ContactLink
    var theirs: ContactLink
}
