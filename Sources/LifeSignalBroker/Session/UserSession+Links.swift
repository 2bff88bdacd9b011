import LifeSignalProtocol

/// The building blocks every rule is made of: each changes this user's memory, records the
/// durable change and emits the event, in one `Mutation`.
extension UserSession {
    /// Stores this user's side of a relationship; `contact.updated` to their devices.
    func saveLink(_ link: ContactLink, into mutation: inout Mutation) {
        contacts[link.record.contactID] = link
        mutation.changes.append(.upsertContact(link.record))
        emit(EventName.contactUpdated, ["contact": link.document.json], into: &mutation)
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

    /// The contact changed what they show of themselves: `contact.updated` to this user's
    /// devices. Nothing to store: the mirror is read from the contact's own row.
    func refreshMirror(of contactID: String, to mirror: ContactMirror, into mutation: inout Mutation) {
        guard var link = contacts[contactID] else { return }
        link.mirror = mirror
        contacts[contactID] = link
        emit(EventName.contactUpdated, ["contact": link.document.json], into: &mutation)
    }

    /// Stores a notification for this user, announces it to their devices and pushes it to
    /// their offline ones (§5, §7).
    func notify(
        _ type: NotificationType, _ message: String, about contactID: String, named name: String,
        role: ContactRole, alertID: String? = nil, pingID: String? = nil, into mutation: inout Mutation
    ) {
        let notification = Notification(
            id: Credentials.newID(prefix: "n"), type: type, title: type.title, message: message,
            timestamp: mutation.now, isRead: false, relatedContactID: contactID, relatedAlertID: alertID,
            relatedPingID: pingID, contactData: ContactData(id: contactID, name: name, role: role, action: type.action))
        notifications.add(notification)
        mutation.changes.append(.insertNotification(userID: userID, notification))
        emit(EventName.notificationAdded, ["notification": notification.json], into: &mutation)
        queuePushes(of: notification, into: &mutation)
    }

    /// This user's responders: the contacts who watch over them.
    var responderIDs: Set<String> { Set(contacts.values.filter(\.record.isResponder).map(\.record.contactID)) }

    /// After this user's own document changed: every contact in `contactIDs` sees it.
    func showChanges(to contactIDs: Set<String>, into mutation: inout Mutation) {
        let mirror = ContactMirror(of: user)
        for contactID in contactIDs {
            session(of: contactID)?.assumeIsolated { $0.refreshMirror(of: userID, to: mirror, into: &mutation) }
        }
    }
}

/// A relationship seen from both ends: the other user's session, this user's link to them and theirs back.
struct Relationship {
    let other: UserSession
    var mine: ContactLink
    var theirs: ContactLink
}
