import Foundation
import Hummingbird
import LifeSignalProtocol
import LifeSignalUV
import Logging
import NIOCore
import Prometheus
import ServiceLifecycle

/// The broker's HTTP endpoint for operators (`--metrics-port`): `/metrics` (Prometheus text),
/// `/healthz` (the process answers), `/readyz` (accepting and the store answers) and
/// `/v1/users/{id}/online` (which devices of a user are online here, for `lsbroker users`), and
/// `DELETE /v1/users/{id}/devices/{device}/push-token` (`lsbroker users --remove-token`, from this
/// machine only).
/// Hummingbird on NIO's threads; every answer about the broker is read on its loop.
public final class OperationsServer: Sendable {
    public let port: Int
    private let running: Task<Void, any Error>

    /// Binds and starts serving; throws when it cannot bind. Blocks until then (start-up only).
    public static func start(host: String, port: Int, broker: Broker, registry: PrometheusCollectorRegistry,
                             logger: Logger) throws -> OperationsServer {
        let router = Router(context: OperationsRequestContext.self)
        // The broker's loop has shut down and the server is about to: an answer, not a wait.
        let stopping = Response(status: .serviceUnavailable, headers: [.contentType: "text/plain; charset=utf-8"],
                                body: .init(byteBuffer: ByteBuffer(string: "stopping\n")))
        let gauges = BrokerGauges(clustered: broker.cluster != nil)
        router.get("metrics") { _, _ -> Response in
            guard let snapshot = try? await broker.onLoopAsync({ $0.snapshot() }) else { return stopping }
            gauges.record(snapshot)
            var text = registry.emitToString()
            snapshot.requests?.render(into: &text)
            return Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: MetricHelp.annotated(text))))
        }
        router.get("healthz") { _, _ in "ok\n" }
        router.get("readyz") { _, _ -> Response in
            let readiness = await broker.readiness()
            return Response(status: readiness.isReady ? .ok : .serviceUnavailable,
                            headers: [.contentType: "text/plain; charset=utf-8"],
                            body: .init(byteBuffer: ByteBuffer(string: readiness.report)))
        }
        router.get("v1/users/:id/online") { _, context -> Response in
            let userID = try context.parameters.require("id")
            guard let devices = try? await broker.onLoopAsync({ $0.onlineDevices(of: userID) }) else { return stopping }
            let body: JSONValue = ["user": .string(userID), "devices": .array(devices.map { .string($0) })]
            return Response(status: .ok, headers: [.contentType: "application/json"],
                            body: .init(byteBuffer: ByteBuffer(bytes: body.serialized())))
        }
        router.delete("v1/users/:id/devices/:device/push-token") { _, context -> Response in
            let (userID, deviceID) = (try context.parameters.require("id"), try context.parameters.require("device"))
            func answer(_ status: HTTPResponse.Status, _ result: String) -> Response {
                let body: JSONValue = ["user": .string(userID), "device": .string(deviceID), "result": .string(result)]
                return Response(status: status, headers: [.contentType: "application/json"],
                                body: .init(byteBuffer: ByteBuffer(bytes: body.serialized())))
            }
            // No authentication here: a change is taken only from this machine (SECURITY.md).
            guard context.isFromThisMachine else { return answer(.forbidden, "not_from_this_machine") }
            do {
                switch try await broker.removePushToken(userID: userID, deviceID: deviceID) {
                case .removed: return answer(.ok, "removed")
                case .noToken: return answer(.ok, "no_token")
                case .unknownDevice: return answer(.notFound, "unknown_device")
                case .unknownUser: return answer(.notFound, "unknown_user")
                }
            } catch is LoopStopped {
                return stopping
            } catch {
                logger.warning("push token not removed", metadata: [
                    "lifesignal.user": "\(userID)", "lifesignal.device": "\(deviceID)", "lifesignal.error": "\(error)",
                ])
                return answer(.serviceUnavailable, "store_unavailable")
            }
        }
        let bound = Locked<Result<Int, any Error>?>(nil)
        let ready = DispatchSemaphore(value: 0)
        var quiet = logger
        quiet.logLevel = max(logger.logLevel, .warning)  // Hummingbird's own lines are per request
        let application = Application(
            router: router, configuration: .init(address: .hostname(host, port: port), serverName: nil),
            onServerRunning: { channel in
                bound.withLock { $0 = .success(channel.localAddress?.port ?? port) }
                ready.signal()
            },
            logger: quiet)
        // Stopped through its service group's graceful shutdown: cancelled, Hummingbird logs an error.
        let group = ServiceGroup(configuration: .init(services: [application], logger: quiet))
        let running = Task {
            do {
                try await group.run()
            } catch {
                let first = bound.withLock { state -> Bool in
                    guard state == nil else { return false }
                    state = .failure(error)
                    return true
                }
                if first { ready.signal() }
                throw error
            }
        }
        ready.wait()
        let port = try bound.withLock { $0! }.get()
        return OperationsServer(port: port, group: group, running: running)
    }

    private let group: ServiceGroup

    private init(port: Int, group: ServiceGroup, running: Task<Void, any Error>) {
        self.port = port
        self.group = group
        self.running = running
    }

    /// Stops serving and waits until the socket is closed.
    public func stop() {
        waitFor {
            await self.group.triggerGracefulShutdown()
            _ = await self.running.result
        }
    }
}
