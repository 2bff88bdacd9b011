import LifeSignalProtocol

extension UserSession {
    /// Entry point for every request of an authenticated device (PROTOCOL §3, §5).
    func handle(_ request: Request, from connection: ClientConnection) {
        guard !connection.answerSessionRequest(request) else { return }
        let command: DeviceCommand
        do throws(ProtocolError) {
            command = try DeviceCommand(request)
        } catch {
            return connection.respond(error: error, rid: request.rid)
        }
        switch command {
        case .profileUpdate(let change):
            updateProfile(change, request, from: connection)
        case .qrRotate:
            rotateQRCode(request, from: connection)
        case .deviceRegister(let token, let platform):
            perform(request, from: connection) { (mutation) throws(ProtocolError) in
                try registerPushToken(token, platform: platform, device: connection, &mutation)
            }
        case .deviceUnregister:
            perform(request, from: connection) { mutation in unregisterPushToken(device: connection, &mutation) }
        case .devicesList:
            connection.respond(rid: request.rid, ["devices": .array(deviceInfos.map(\.json))])
        case .contactsAdd(let qrCode, let isResponder, let isDependent):
            addContact(qrCode: qrCode, isResponder: isResponder, isDependent: isDependent, request, from: connection)
        case .contactsRemove(let contactID):
            removeContact(contactID, request, from: connection)
        case .contactsSetRoles(let contactID, let isResponder, let isDependent):
            setRoles(of: contactID, isResponder: isResponder, isDependent: isDependent, request, from: connection)
        case .contactsList:
            connection.respond(rid: request.rid, contactList)
        case .pingSend(let contactID):
            sendPing(to: contactID, request, from: connection)
        case .pingRespond(let contactID):
            respondToPing(from: contactID, request, from: connection)
        case .pingClear(let contactID):
            clearPing(to: contactID, request, from: connection)
        case .checkIn:
            checkIn(request, from: connection)
        case .alertTrigger(let message):
            triggerAlert(message: message, request, from: connection)
        case .alertCancel:
            cancelAlert(request, from: connection)
        case .notificationsList(let before, let limit):
            listNotifications(before: before, limit: limit, request, from: connection)
        case .notificationsRead(let id):
            readNotification(id, request, from: connection)
        case .notificationsReadAll:
            perform(request, from: connection) { mutation in readAllNotifications(&mutation) }
        case .notificationsDelete(let id):
            deleteNotification(id, request, from: connection)
        }
    }
}
