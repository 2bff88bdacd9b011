import Crypto

extension DeviceState {
    /// A short fingerprint of everything the state holds, equal on two devices exactly when their
    /// states are (SHA-256 of the saved form, which orders contacts by name and id): what
    /// `lsclient state` and `sync` print, so that a person sees at a glance that devices agree.
    public var digest: String {
        let hash = SHA256.hash(data: serialized())
        return hash.prefix(8).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
