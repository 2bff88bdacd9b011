import LifeSignalClient

extension InProcessBroker {
    /// A new user named `name` with one device, "phone", connected and caught up; it does not
    /// reconnect.
    func person(_ name: String) async throws -> (registration: Registration, phone: LifeSignalClient) {
        let registration = try await LifeSignalClient.register(port: port, name: name)
        let phone = try LifeSignalClient(configuration: ClientConfiguration(
            port: port, userID: registration.user.id, token: registration.token, deviceID: "phone",
            reconnect: .disabled))
        _ = try await phone.connect()
        return (registration, phone)
    }
}
