import LifeSignalEngine
import LifeSignalProtocol

extension ClientConnection {
    /// `keepalive`, `bye`, a second `hello` and `register` (§3): answered alike whichever executor
    /// serves the device. True when `request` was one of them.
    private func answerSessionRequest(_ request: Request) -> Bool {
        switch request.op {
        case Op.keepalive:
            respond(rid: request.rid, serverTime: WallClock.nowMs())
        case Op.bye:
            respond(rid: request.rid, closeAfter: true)
        case Op.hello:
            respond(error: .badRequest("this connection has already said hello"), rid: request.rid)
        case Op.register:
            broker.onLoop { $0.register(request, from: self) }
        default:
            return false
        }
        return true
    }

    /// The device command `request` carries, for its device's executor; nil when it is answered
    /// here already: a session request, or one refused for its op or fields (§3, §5).
    func deviceCommand(of request: Request) -> DeviceCommand? {
        guard !answerSessionRequest(request) else { return nil }
        do throws(ProtocolError) {
            let command = try DeviceCommand(request)
            if case .deviceRevoke(let device) = command, device == activeDeviceID { beginSigningOut(rid: request.rid) }
            return command
        } catch {
            respond(error: error, rid: request.rid)
            return nil
        }
    }

    /// The request's `opId` (§12), `.some(nil)` when it has none or is a read (which runs afresh
    /// each time); nil, after answering `bad_request`, when it is malformed.
    func operationID(of request: Request, changingState: Bool) -> String?? {
        do throws(ProtocolError) {
            let opID = try OperationID.of(request)
            return .some(changingState ? opID : nil)
        } catch {
            respond(error: error, rid: request.rid)
            return nil
        }
    }
}
