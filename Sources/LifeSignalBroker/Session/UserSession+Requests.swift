import LifeSignalProtocol

extension UserSession {
    /// Entry point for every request of an authenticated device (PROTOCOL §3, §5).
    func handle(_ request: Request, from connection: ClientConnection) {
        switch request.op {
        case Op.keepalive:
            connection.respond(rid: request.rid, ["serverTime": .int(WallClock.nowMs())])
        case Op.bye:
            connection.respond(rid: request.rid, closeAfter: true)
        case Op.hello:
            connection.respond(error: .badRequest("this connection has already said hello"), rid: request.rid)
        case Op.register:
            broker.assumeIsolated { $0.register(request, from: connection) }
        case Op.profileUpdate:
            perform(request, from: connection) { (mutation) throws(ProtocolError) in
                try updateProfile(request, &mutation)
            }
        case Op.qrRotate:
            perform(request, from: connection) { mutation in rotateQRCode(&mutation) }
        case Op.deviceRegister:
            perform(request, from: connection) { (mutation) throws(ProtocolError) in
                try registerPushToken(request, device: connection, &mutation)
            }
        case Op.deviceUnregister:
            perform(request, from: connection) { mutation in unregisterPushToken(device: connection, &mutation) }
        case Op.devicesList:
            connection.respond(rid: request.rid, ["devices": .array(deviceInfos.map(\.json))])
        default:
            connection.respond(error: ProtocolError(.unknownOp, "unknown op '\(request.op)'"), rid: request.rid)
        }
    }
}
