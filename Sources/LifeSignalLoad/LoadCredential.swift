/// A user the load generator registered through the protocol; kept so a device can reconnect.
package struct LoadCredential {
    package let userID: String
    package let token: String
}
