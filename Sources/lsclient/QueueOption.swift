import ArgumentParser
import LifeSignalProtocol

/// A request a device makes (lsclient's own `DeviceCommand` is the `device` command).
typealias Write = LifeSignalProtocol.DeviceCommand

/// `--queue` on a write: if the broker cannot be reached, the write waits in the device's outbox.
struct QueueOption: ParsableArguments {
    @Flag(help: "If the broker cannot be reached, keep this in the device's outbox; `lsclient outbox send` (or a watch) sends it, once.")
    var queue = false

    /// `write` when queueing was asked for.
    func queueing(_ write: Write) -> Write? { queue ? write : nil }
}
