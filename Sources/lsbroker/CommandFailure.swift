/// A failure lsbroker reports with a code of its own (`--json` prints it), exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    /// Like the protocol's error codes: `not_found`.
    let code: String
    let message: String

    var description: String { message }
}
