import Foundation
import LifeSignalClient
import LifeSignalProtocol

/// The configuration directory: `profiles/NAME.json` and `devices/NAME--DEVICE.json`.
struct ProfileStore {
    let directory: String

    /// $LSCLIENT_CONFIG_DIR, else $XDG_CONFIG_HOME/lifesignal, else ~/.config/lifesignal.
    static func resolve() throws(CLIError) -> ProfileStore {
        if let directory = Environment.value("LSCLIENT_CONFIG_DIR") { return ProfileStore(directory: directory) }
        if let xdg = Environment.value("XDG_CONFIG_HOME") { return ProfileStore(directory: "\(xdg)/lifesignal") }
        guard let home = Environment.value("HOME") else {
            throw .usage("cannot find a configuration directory: set LSCLIENT_CONFIG_DIR or HOME")
        }
        return ProfileStore(directory: "\(home)/.config/lifesignal")
    }

    /// Names become file names: keep them to a safe alphabet.
    static func checkedProfileName(_ name: String) throws(CLIError) -> String {
        let allowed = name.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_")
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        guard !name.isEmpty, name.utf8.count <= 64, allowed, !name.hasPrefix(".") else {
            throw .usage("profile name '\(name)' must be 1–64 characters of [A-Za-z0-9._-], not starting with '.'")
        }
        return name
    }

    static func checkedDeviceID(_ device: String) throws(CLIError) -> String {
        do {
            return try Validate.deviceID(device)
        } catch {
            throw .usage("device id '\(device)': must be 1–64 characters of [A-Za-z0-9._:-]")
        }
    }

    func profilePath(_ name: String) -> String { "\(directory)/profiles/\(name).json" }
    func statePath(profile: String, device: String) -> String { "\(directory)/devices/\(profile)--\(device).json" }
    /// The device's outbox: writes queued while the broker was out of reach (`--queue`).
    func outboxPath(profile: String, device: String) -> String { "\(directory)/outbox/\(profile)--\(device).json" }

    /// The device's outbox, its directory made if need be.
    func outbox(profile: String, device: String) throws(CLIError) -> FileOutboxStorage {
        try SecureFile.makeDirectory(directory)
        try SecureFile.makeDirectory("\(directory)/outbox")
        return FileOutboxStorage(path: outboxPath(profile: profile, device: device))
    }

    /// The devices of `profile` that have a saved state, sorted.
    func devicesWithState(profile: String) -> [String] {
        let prefix = "\(profile)--"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/devices")) ?? []
        return names.filter { $0.hasPrefix(prefix) && $0.hasSuffix(".json") }
            .map { String($0.dropFirst(prefix.count).dropLast(5)) }.sorted()
    }

    func profileExists(_ name: String) -> Bool {
        SecureFile.exists(profilePath(name))
    }

    func loadProfile(_ name: String) throws(CLIError) -> Profile {
        let path = profilePath(name)
        guard let bytes = try SecureFile.readFile(path) else {
            throw .local("no profile '\(name)' in \(directory) (create one with: lsclient register --name NAME)")
        }
        do {
            return try Profile(json: JSONValue.parse(bytes))
        } catch {
            throw .local("profile \(path) is damaged: \(error)")
        }
    }

    func saveProfile(_ profile: Profile, as name: String) throws(CLIError) {
        try SecureFile.makeDirectory(directory)
        try SecureFile.makeDirectory("\(directory)/profiles")
        var bytes = profile.json.serialized()
        bytes.append(UInt8(ascii: "\n"))
        try SecureFile.writeFile(bytes, to: profilePath(name))
    }

    /// Forgets `name` and every device state saved for it.
    func removeProfile(_ name: String) {
        for device in devicesWithState(profile: name) {
            try? FileManager.default.removeItem(atPath: statePath(profile: name, device: device))
        }
        let outboxes = (try? FileManager.default.contentsOfDirectory(atPath: "\(directory)/outbox")) ?? []
        for file in outboxes where file.hasPrefix("\(name)--") {
            try? FileManager.default.removeItem(atPath: "\(directory)/outbox/\(file)")
        }
        try? FileManager.default.removeItem(atPath: profilePath(name))
    }

    /// nil if none was saved. A damaged one is reported: the caller decides whether to start over.
    func loadState(profile: String, device: String) throws(CLIError) -> DeviceState? {
        let path = statePath(profile: profile, device: device)
        guard let bytes = try SecureFile.readFile(path) else { return nil }
        do {
            return try DeviceState(serialized: bytes)
        } catch {
            throw .local("device state \(path) is damaged: \(error)")
        }
    }

    func saveState(_ state: DeviceState, profile: String, device: String) throws(CLIError) {
        try SecureFile.makeDirectory(directory)
        try SecureFile.makeDirectory("\(directory)/devices")
        var bytes = state.serialized()
        bytes.append(UInt8(ascii: "\n"))
        try SecureFile.writeFile(bytes, to: statePath(profile: profile, device: device))
    }
}
