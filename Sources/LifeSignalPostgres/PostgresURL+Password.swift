import Foundation

/// Where the password comes from when it is not in the URL, so that it need not be in `ps` or in
/// an environment other processes can read.
extension PostgresURL {
    /// This URL with the password of `--postgres-password-file` (the whole file less one line end).
    /// - Throws: `passwordUnavailable` when the URL has one too, or the file cannot be read, is
    ///   empty, or is open to group or others.
    public func withPassword(fromFile path: String?) throws(PostgresStoreError) -> PostgresURL {
        guard let path else { return self }
        guard password == nil else {
            throw .passwordUnavailable("the URL has a password and a password file is given too: give it in one place")
        }
        var text = try Self.readPrivateFile(path)
        if text.hasSuffix("\n") || text.hasSuffix("\r\n") { text.removeLast() }  // "\r\n" is one Character
        guard !text.isEmpty else { throw .passwordUnavailable("the password file \(path) is empty") }
        var url = self
        url.password = text
        return url
    }

    /// This URL with a password from `environment` when it has none, as libpq finds one:
    /// PGPASSWORD, else the first line of the password file (PGPASSFILE, else ~/.pgpass) that
    /// matches host, port, database and user.
    /// - Throws: `passwordUnavailable` when PGPASSFILE names a file that cannot be read, or the
    ///   password file is open to group or others (libpq ignores such a file; this refuses it).
    public func resolvingPassword(environment: [String: String]) throws(PostgresStoreError) -> PostgresURL {
        guard password == nil else { return self }
        var url = self
        if let password = environment["PGPASSWORD"], !password.isEmpty {  // libpq too takes "" for unset
            url.password = password
            return url
        }
        let path: String
        if let named = environment["PGPASSFILE"] {
            path = named
        } else if let home = environment["HOME"], FileManager.default.fileExists(atPath: home + "/.pgpass") {
            path = home + "/.pgpass"
        } else {
            return self
        }
        url.password = Self.pgpassPassword(try Self.readPrivateFile(path), for: self)
        return url
    }

    /// The password of the first line of a libpq password file that matches `url`:
    /// `host:port:database:user:password`, each of the first four a literal or `*`; `\:` and `\\`
    /// stand for ':' and '\'; lines starting with '#' are comments.
    static func pgpassPassword(_ contents: String, for url: PostgresURL) -> String? {
        let wanted = [url.host, String(url.port), url.database, url.username]
        for line in contents.split(whereSeparator: \.isNewline) where !line.hasPrefix("#") {
            let fields = pgpassFields(line)
            guard fields.count == 5 else { continue }
            if zip(fields, wanted).allSatisfy({ field, value in field == "*" || field == value }) { return fields[4] }
        }
        return nil
    }

    /// A line's fields, split at unescaped ':' and unescaped (so `\*` too is a wildcard here,
    /// where libpq reads a literal '*': no host, port, database or user of ours is one).
    private static func pgpassFields(_ line: Substring) -> [String] {
        var fields = [""]
        var escaped = false
        for character in line {
            if escaped {
                fields[fields.count - 1].append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == ":" && fields.count < 5 {
                fields.append("")
            } else {
                fields[fields.count - 1].append(character)
            }
        }
        return fields
    }

    /// The text of a file only its owner may read (libpq's rule for ~/.pgpass: no group or other
    /// permission at all).
    static func readPrivateFile(_ path: String) throws(PostgresStoreError) -> String {
        let attributes: [FileAttributeKey: Any]
        do { attributes = try FileManager.default.attributesOfItem(atPath: path) } catch {
            throw .passwordUnavailable("cannot read the password file \(path): no such file or no access")
        }
        guard attributes[.type] as? FileAttributeType == .typeRegular else {
            throw .passwordUnavailable("the password file \(path) is not a regular file")
        }
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue ?? 0o777
        guard mode & 0o077 == 0 else {
            throw .passwordUnavailable(
                "the password file \(path) may be read by group or others (mode \(String(mode, radix: 8))): chmod 600 \(path)")
        }
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw .passwordUnavailable("cannot read the password file \(path)")
        }
        return text
    }
}
