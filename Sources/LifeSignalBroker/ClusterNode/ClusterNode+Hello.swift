import LifeSignalEngine
import LifeSignalPostgres
import LifeSignalProtocol

extension ClusterNode {
    /// `register` in the cluster: the user and their head row, committed before the `ok`.
    /// `register`: the account's rows (`changes`) in one commit.
    func register(_ changes: [StoreChange], completion: @escaping @Sendable (Bool) -> Void) {
        run({ try await $0.commit(changes) }, then: { result in
            completion((try? result.get()) != nil)
        })
    }

    /// `hello` in the cluster (§3, §11): the token checked against the stored hash, the device
    /// recorded as online here, then the answer and the catch-up up to the head read with them.
    func hello(_ hello: HelloRequest, from connection: ClientConnection) {
        connection.beginAuthentication()
        let (brokerID, configuration) = (self.brokerID, self.configuration)
        let key = DeviceKey(userID: hello.userID, deviceID: hello.deviceID)
        attaching[key, default: 0] += 1
        // The token is checked under the user's lock as the device is stored, then again in the
        // greeting's snapshot: a revocation committed before the head was read is refused there.
        run({ executor -> HelloAdmission in
            let previous: String?
            do {
                previous = try await executor.attach(
                    userID: hello.userID, deviceID: hello.deviceID, platform: hello.platform, brokerID: brokerID,
                    now: WallClock.nowMs(), maxOnline: configuration.maxDevicesPerUser,
                    maxStored: configuration.maxStoredDevices, admitting: hello.token)
            } catch is HelloNotAdmitted {
                return .refused(attached: false)
            }
            if let previous {
                // Best effort: a broker that misses it keeps a connection whose device is gone.
                try? await executor.notify(ClusterHints.replaced(userID: hello.userID, deviceID: hello.deviceID,
                                                                 on: previous))
            }
            do {
                return .admitted(try await Self.greeting(for: hello, executor: executor, configuration: configuration))
            } catch is HelloNotAdmitted {
                return .refused(attached: true)
            }
        }, then: { [self] result in
            if attaching[key, default: 1] <= 1 { attaching[key] = nil } else { attaching[key]! -= 1 }
            switch result {
            case .success(.admitted(let greeting)):
                finishHello(hello, greeting: greeting, from: connection)
            case .success(.refused(let attached)):
                if attached { forget(device: hello.deviceID, of: hello.userID) }
                refuse(hello, from: connection)
            case .failure(let error as ProtocolError):
                connection.fail(error, rid: hello.rid)
            case .failure:
                // Its presence row may have been written before the failure.
                presenceInDoubt()
                // Not `unauthenticated`: the credentials may be right. The connection stays open.
                connection.respond(error: ProtocolError(.internal, "the cluster store could not be reached; try again"),
                                   rid: hello.rid)
                connection.abandonAuthentication()
            }
        })
    }

    private enum HelloAdmission: Sendable {
        case admitted(ClusterGreeting)
        /// The token does not let the device in; `attached`: its presence was written first.
        case refused(attached: Bool)
    }

    /// The user's document, head and catch-up, if the hello's token still lets the device in at
    /// that head (else `HelloNotAdmitted`).
    private static func greeting(for hello: HelloRequest, executor: ClusterExecutor,
                                 configuration: BrokerConfiguration) async throws -> ClusterGreeting {
        try await executor.greeting(of: hello.userID, resume: hello.resume,
                                    maxOutboundBytes: configuration.maxOutboundBytes,
                                    admitting: (hello.deviceID, hello.token))
    }

    private func refuse(_ hello: HelloRequest, from connection: ClientConnection) {
        broker?.onLoop { $0.recordFailedHello(from: connection) }
        connection.fail(ProtocolError(.unauthenticated, "unknown user or wrong token"), rid: hello.rid)
    }

    /// Attaches the device once its catch-up reaches at least what this broker has already sent
    /// the user's other devices; else reads the catch-up again (the head only grows).
    private func finishHello(_ hello: HelloRequest, greeting: ClusterGreeting, from connection: ClientConnection) {
        guard !connection.isClosing else { return forget(device: hello.deviceID, of: hello.userID) }
        let isNew = feeds[hello.userID] == nil
        let feed = feed(of: hello.userID, startingAt: greeting.head)
        guard feed.delivered <= greeting.head else {
            let configuration = self.configuration
            run({ try await Self.greeting(for: hello, executor: $0, configuration: configuration) }, then: { [self] result in
                switch result {
                case .success(let newer): finishHello(hello, greeting: newer, from: connection)
                case .failure(is HelloNotAdmitted):
                    forget(device: hello.deviceID, of: hello.userID)
                    refuse(hello, from: connection)
                case .failure(let error):
                    presenceInDoubt()
                    connection.fail(Self.protocolError(error), rid: hello.rid)
                }
                releaseFeedIfIdle(hello.userID)
            })
            return
        }
        if let previous = feed.connections[hello.deviceID] {
            previous.cut(.replaced, ProtocolError(.replaced, "device '\(hello.deviceID)' connected again"))
        }
        feed.connections[hello.deviceID] = connection
        // Everything up to the head reaches this device through the catch-up; later events live.
        connection.baselineSeq = greeting.head
        let fields = HelloAnswer.fields(user: greeting.user, lastSeq: greeting.head, version: hello.version,
                                        configuration: configuration,
                                        brokerID: brokerID)
        connection.complete(connection.reserveResponse(), with: Outbound.ok(rid: hello.rid, fields) + greeting.frames)
        connection.finishAuthentication(
            attachedTo: ClusterDevice(node: self, userID: hello.userID, deviceID: hello.deviceID), deviceID: hello.deviceID)
        // A hint that came while no feed was here was dropped: read once past the head.
        if isNew { feed.want(greeting.head + 1) }
    }

    /// The device's connection ended: offline from now on, unless it connected here again meanwhile.
    func detach(_ connection: ClientConnection, userID: String, deviceID: String) {
        guard let feed = feeds[userID], feed.connections[deviceID] === connection else { return }
        feed.connections[deviceID] = nil
        releaseFeedIfIdle(userID)
        forget(device: deviceID, of: userID)
    }

    private func forget(device deviceID: String, of userID: String) {
        let (brokerID, offlineAt) = (self.brokerID, WallClock.nowMs())
        run({ try await $0.detach(userID: userID, deviceID: deviceID, brokerID: brokerID, now: offlineAt) },
            then: { [self] result in
                // Its row may say it is still online here, so that it is not pushed: reconciled.
                if case .failure(let error) = result {
                    presenceInDoubt(DeviceKey(userID: userID, deviceID: deviceID), offlineAt: offlineAt)
                    logPresenceLost(error)
                }
            })
    }
}
