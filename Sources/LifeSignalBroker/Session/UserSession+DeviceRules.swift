import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalRules

/// A user's devices (§5, §12) on the embedded broker: `DeviceRules` over the devices as listed,
/// memory following their effects (a failed commit reloads the user).
extension UserSession {
    /// `device.revoke`. The event closes the revoked device's connections as it reaches them
    /// (`deliver`).
    func revokeDevice(_ mutation: inout Mutation,
                      _ rule: ([DeviceInfo], inout Step) throws(ProtocolError) -> Reply) throws(ProtocolError) -> Reply {
        var step = Step(now: mutation.now, accounts: [], ids: RandomIDs())
        let reply = try rule(deviceInfos, &step)
        carryOut(step, &mutation)
        return reply
    }

    /// `signin` for this user, on a session `Broker.withSessions` pinned for it: `rule`
    /// (`DeviceRules.signIn`) spends the code and grants the credential in one commit, which fails
    /// whole (`LinkCodeNotValid`) if the code is no longer valid; a code this session spent
    /// already is refused before that. `done` hears the user once the store holds it.
    func signIn(code: String, _ rule: ([DeviceInfo], inout Step) throws(ProtocolError) -> User,
                done: @escaping @Sendable (Result<User, any Error>) -> Void) {
        defer { unpin() }
        guard !isStale, !isErased else { return done(.failure(ProtocolError(.overloaded, "the user is being reloaded"))) }
        guard !spentLinkCodes.contains(code) else { return done(.failure(LinkCodeNotValid(code: code))) }
        var mutation = Mutation(now: WallClock.nowMs())
        var step = Step(now: mutation.now, accounts: [account], ids: RandomIDs())
        let user: User
        do throws(ProtocolError) {
            user = try rule(deviceInfos, &step)
        } catch {
            return done(.failure(error))
        }
        spentLinkCodes.insert(code)
        carryOut(step, &mutation)
        commit(mutation, committed: { result in done(result.map { user }) })
    }

    /// The device rules' effects: into the transaction and the session's memory, their events
    /// logged for the user's devices.
    func carryOut(_ step: Step, _ mutation: inout Mutation) {
        for effect in step.effects {
            switch effect {
            case .store(let change):
                let stored = StoreChange(change)
                switch stored {
                case .revokeDevice(let key): forgetDevice(key.deviceID)
                case .grantDeviceCredential(let credential): deviceCredentials[credential.key.deviceID] = credential
                case .movePushToken(let token, let key, let platform): movePushToken(token, to: key, platform: platform, &mutation)
                case .clearPushToken(let key, _): clearPushToken(of: key)
                default: break
                }
                mutation.changes.append(stored)
            case .event(_, let name, let data): emit(name, data, into: &mutation)
            case .notification: break  // the device rules make none
            }
        }
        join(&mutation)
    }

    private func forgetDevice(_ deviceID: String) {
        if let record = devices[deviceID], let token = record.pushToken {
            broker.onLoop { $0.releasePushToken(token, from: record.key) }
        }
        devices[deviceID] = nil
        deviceCredentials[deviceID] = nil
    }
}
