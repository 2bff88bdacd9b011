import LifeSignalProtocol

/// Makes devices contacts before a run's clock starts (`LoadScenario.prepare`): for each link the
/// adder sends `contacts.add` with the addee's QR code (from its register result), making the
/// addee its dependent (`isResponder: false, isDependent: true`), the responder→dependent link
/// pings, fanout and storm use. Done when every add has its `ok` (the adder's own events come
/// before it, PROTOCOL §6) and every addee has read each of its "added you" notifications.
/// A device is an adder or an addee, not both. Loop thread only.
package final class ContactPairing {
    package struct Link {
        let adder: Int
        let addee: Int
    }

    private let links: [Link]
    private var oksToCome: Int
    /// Device index → "added you" notifications still to come.
    private var notificationsToCome: [Int: Int] = [:]
    private var onDone: (() -> Void)?

    package init(_ links: [Link]) {
        self.links = links
        oksToCome = links.count
        for link in links { notificationsToCome[link.addee, default: 0] += 1 }
    }

    package var isDone: Bool { oksToCome == 0 && notificationsToCome.isEmpty }

    /// Sends every `contacts.add`; `onDone` runs once all have taken effect. A failure ends the
    /// run's preparation.
    package func start(in run: LoadRun, onDone: @escaping () -> Void) {
        self.onDone = onDone
        for link in links {
            let addee = run.devices[link.addee]
            guard let qrCode = addee.qrCode else {
                return run.preparationFailed("the register result of \(addee.deviceID) has no qrCode")
            }
            run.devices[link.adder].send(.contactsAdd(qrCode: qrCode, isResponder: false, isDependent: true),
                                         kind: LoadRequestKind.contactsAdd)
        }
        finishIfDone()
    }

    /// A response during preparation; true when it was one of the pairing's.
    package func handle(_ response: LoadResponse, from device: LoadDevice, in run: LoadRun) -> Bool {
        guard response.kind == LoadRequestKind.contactsAdd else { return false }
        if let code = response.errorCode {
            run.preparationFailed("contacts.add by \(device.deviceID): \(code.rawValue)")
        } else {
            oksToCome -= 1
            finishIfDone()
        }
        return true
    }

    /// An event during preparation: an addee's "added you" notification counts.
    package func handleEvent(_ name: String, on device: LoadDevice) {
        guard name == EventName.notificationAdded, let left = notificationsToCome[device.index] else { return }
        notificationsToCome[device.index] = left > 1 ? left - 1 : nil
        finishIfDone()
    }

    private func finishIfDone() {
        guard isDone, let onDone else { return }
        self.onDone = nil
        onDone()
    }
}
