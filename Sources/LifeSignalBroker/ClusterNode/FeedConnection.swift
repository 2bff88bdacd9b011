/// What a `DeviceFeed` needs of a device's connection: `ClientConnection` on a broker, a
/// recording fake in tests.
protocol FeedConnection: AnyObject {
    /// Events at or below this seq reach the device through its catch-up, not live.
    var baselineSeq: Int64 { get }
    /// Sends an event frame unless its seq is at or below `baselineSeq`; `revoking` is the device
    /// the event revokes (`DeviceRevocation`, read once per event by the caller), whose
    /// connections are closed instead.
    func sendEvent(seq: Int64, frame: [UInt8], revoking: String?)
    /// Ends the connection at once, as a reader too far behind is cut (§9); its device resumes.
    func close()
}

extension ClientConnection: FeedConnection {}
