/// Local addresses to connect from. Loopback allows about 28k ephemeral ports per source
/// address, so with the broker on 127.x the devices spread over 127.0.0.1–127.0.0.255
/// (all of 127/8 is loopback on Linux, no set-up needed). Elsewhere the kernel chooses.
package struct SourceAddresses {
    private let spread: Bool

    package init(brokerHost: String) {
        spread = brokerHost == "localhost" || brokerHost.hasPrefix("127.")
    }

    /// The source address of device `index`, or nil for the kernel's choice.
    package func address(for index: Int) -> String? {
        spread ? "127.0.0.\(1 + index % 255)" : nil
    }
}
