/// A user the load generator registered through the protocol; kept so a device can reconnect.
struct LoadCredential {
    let userID: String
    let token: String
}
