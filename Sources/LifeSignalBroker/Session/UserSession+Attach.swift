import LifeSignalEngine
import LifeSignalProtocol
import LifeSignalStoreSQLite

/// What a device asked for in its `hello`, already validated, with the rid its answer carries.
@dynamicMemberLookup
struct HelloRequest: Sendable {
    var rid: Int64?
    var fields: Hello

    subscript<Field>(dynamicMember field: KeyPath<Hello, Field>) -> Field { fields[keyPath: field] }
}

extension UserSession {
    /// Brings a device online after its credentials were checked (§3): replaces an older
    /// connection of the same device, enforces the device limit, then answers `ok` and the
    /// catch-up once everything before this moment is durable: at once when it already is and
    /// memory holds the catch-up, else behind the device record's write.
    func attach(_ connection: ClientConnection, hello: HelloRequest) {
        // The online limit, and the offline devices a new one replaces (§10) in its transaction.
        let attachment: DeviceAttachment
        do {
            attachment = try DeviceAttachment(
                DeviceKey(userID: userID, deviceID: hello.deviceID), platform: hello.platform, now: WallClock.nowMs(),
                existing: devices[hello.deviceID], stored: devices.values, onlineCount: online.count,
                isOnline: { online[$0] != nil }, maxOnline: configuration.maxDevicesPerUser,
                maxStored: configuration.maxStoredDevices)
        } catch {
            return connection.fail(error, rid: hello.rid)
        }
        online[hello.deviceID]?.connection.cut(
            .replaced, ProtocolError(.replaced, "device '\(hello.deviceID)' connected again"))
        forget(attachment.forgotten)
        let record = attachment.record
        devices[hello.deviceID] = record
        // The stored record's copy of the id, so that a device online holds its id once.
        let deviceID = record.key.deviceID
        online[deviceID] = OnlineDevice(deviceID: deviceID, connection: connection)

        // Everything up to `baseline` reaches this device through the catch-up; later events live.
        let baseline = lastSeq
        connection.baselineSeq = baseline
        let greeting = HelloAnswer.fields(user: user, lastSeq: baseline, version: hello.version, configuration: configuration,
                                          brokerID: broker.onLoop { $0.brokerID })
        if pendingCommits == 0 {
            // Nothing of this user is on its way to the store: memory is the durable state, so the
            // answer and catch-up go out now, and the device record is written behind them.
            if let catchUp = catchUpFromMemory(resume: hello.resume, through: baseline) {
                connection.complete(connection.reserveResponse(), with: Outbound.ok(rid: hello.rid, greeting) + catchUp)
                var mutation = Mutation(now: WallClock.nowMs())
                mutation.changes += attachment.changes
                join(&mutation)
                // A device forgotten to make room is a real change; the record alone is bookkeeping,
                // so that a full disk lets the device in to read (issue 24 item 10).
                commit(mutation, isBookkeeping: attachment.forgotten.isEmpty)
                connection.finishAuthentication(attachedTo: self, deviceID: deviceID)
                return
            }
        }
        let replay = catchUpRange(resume: hello.resume, through: baseline)
        // Built now, while memory holds exactly the state at `baseline`.
        let snapshot = replay == nil ? snapshotFrame(seq: baseline) : nil
        let ticket = connection.reserveResponse()
        pendingCommits += 1
        // The device's record, then the catch-up read behind it (completions come in order): the
        // read needs no room on the disk, so a full disk still lets the device in (issue 24 item 10).
        submit(StoreWrite(changes: attachment.changes)) { [self] result in
            guard case .failure(let error) = result else { return }
            onLoop { session in
                session.broker.onLoop { $0.logStoreFailure("could not record a device", ["lifesignal.error": "\(error)"]) }
                // A device forgotten to make room is gone from memory but not from the store.
                if !attachment.forgotten.isEmpty { session.markStale() }
            }
        }
        submit(StoreWrite(changes: [], query: replay)) { [self] result in
            onLoop { session in
                defer { session.commitFinished() }
                guard case .success(let written) = result else {
                    connection.fail(ProtocolError(.internal, "the catch-up could not be read"), rid: hello.rid)
                    return
                }
                var reply = Outbound.ok(rid: hello.rid, greeting)
                if case .events(let events?) = written.queryResult {
                    for body in events { reply += FrameEncoder.frame(body: body) }
                } else {
                    // Pruned after all (the store disagrees with memory), or too long to replay:
                    // the state now instead.
                    reply += snapshot ?? session.snapshotFrame(seq: session.lastSeq)
                    if snapshot == nil { connection.baselineSeq = session.lastSeq }
                }
                connection.complete(ticket, with: reply)
            }
        }
        // Only now may the requests pipelined behind the hello run: their answers come after its
        // own, and their events after its catch-up (§2, §3).
        connection.finishAuthentication(attachedTo: self, deviceID: deviceID)
    }

    /// The catch-up when memory holds all of it: the events after `resume` from `recentEvents`, or
    /// a snapshot when one is due (§3). Nil when the events must be read from the store.
    private func catchUpFromMemory(resume: Int64?, through baseline: Int64) -> [UInt8]? {
        guard catchUpRange(resume: resume, through: baseline) != nil, let resume else {
            return snapshotFrame(seq: baseline)
        }
        return recentEvents.frames(after: resume, through: baseline)
    }

    /// The events to read for `resume` (`CatchUpPlan`), or nil when a snapshot is due. A replay
    /// that would not fit comes back empty from the store, and the device gets a snapshot instead.
    private func catchUpRange(resume: Int64?, through baseline: Int64) -> StoreQuery? {
        let plan = CatchUpPlan(resume: resume, head: baseline, oldestRetained: eventLog.oldestRetained,
                               maxOutboundBytes: configuration.maxOutboundBytes)
        guard case .replay(let after, let through, let maxBytes) = plan else { return nil }
        return .events(userID: userID, afterSeq: after, throughSeq: through, maxBytes: maxBytes)
    }

    func snapshotFrame(seq: Int64) -> [UInt8] {
        Outbound.snapshot(seq: seq, user: user, contacts: contactDocuments,
                                 notifications: Array(notifications.visibleNewest), unreadCount: notifications.unreadCount)
    }

    /// The device went away: it is offline from now on, last seen now.
    func detach(_ connection: ClientConnection, deviceID: String) {
        guard online[deviceID]?.connection === connection else { return }
        online[deviceID] = nil
        // A stale session's memory is not the store's: writing its device record back would
        // undo what the failed write left as it was (a push token taken from it, say).
        guard !isStale, var record = devices[deviceID] else { return }
        record.lastSeenAt = WallClock.nowMs()
        devices[deviceID] = record
        var mutation = Mutation(now: WallClock.nowMs())
        mutation.changes.append(.upsertDevice(record))
        join(&mutation)
        commit(mutation, isBookkeeping: true)
    }
}
