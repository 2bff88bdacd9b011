import LifeSignalProtocol

extension UserSession {
    /// Entry point for every request of an authenticated device (PROTOCOL §3, §5).
    func handle(_ request: Request, from connection: ClientConnection) {
        guard !connection.answerSessionRequest(request) else { return }
        switch request.op {
        case Op.profileUpdate:
            updateProfile(request, from: connection)
        case Op.qrRotate:
            rotateQRCode(request, from: connection)
        case Op.deviceRegister:
            perform(request, from: connection) { (mutation) throws(ProtocolError) in
                try registerPushToken(request, device: connection, &mutation)
            }
        case Op.deviceUnregister:
            perform(request, from: connection) { mutation in unregisterPushToken(device: connection, &mutation) }
        case Op.devicesList:
            connection.respond(rid: request.rid, ["devices": .array(deviceInfos.map(\.json))])
        case Op.contactsAdd:
            addContact(request, from: connection)
        case Op.contactsRemove:
            removeContact(request, from: connection)
        case Op.contactsSetRoles:
            setContactRoles(request, from: connection)
        case Op.contactsList:
            connection.respond(rid: request.rid, contactList)
        case Op.pingSend:
            sendPing(request, from: connection)
        case Op.pingRespond:
            respondToPing(request, from: connection)
        case Op.pingClear:
            clearPing(request, from: connection)
        case Op.checkIn:
            checkIn(request, from: connection)
        case Op.alertTrigger:
            triggerAlert(request, from: connection)
        case Op.alertCancel:
            cancelAlert(request, from: connection)
        case Op.notificationsList:
            listNotifications(request, from: connection)
        case Op.notificationsRead:
            readNotification(request, from: connection)
        case Op.notificationsReadAll:
            perform(request, from: connection) { mutation in readAllNotifications(&mutation) }
        case Op.notificationsDelete:
            deleteNotification(request, from: connection)
        default:
            connection.respond(error: ProtocolError(.unknownOp, "unknown op '\(request.op)'"), rid: request.rid)
        }
    }
}
