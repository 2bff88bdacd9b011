import ArgumentParser
import LifeSignalClient
import LifeSignalProtocol

/// How a command that failed ends: its report on stderr, `error: <code>: <message>` (with --json
/// one object, `{"type":"error","error":{"code":…,"message":…}}`), and its exit status.
struct Failure: Error {
    /// The broker's error code, `connection_failed` and the like, `usage` or `local`.
    let code: String
    let message: String
    let status: Int32

    /// The exit statuses, as `lsclient --help` and the README list them.
    enum Status {
        static let brokerOrLocal: Int32 = 1
        static let connection: Int32 = 2
        /// BSD's EX_USAGE, which ArgumentParser uses for the errors it finds.
        static let usage: Int32 = 64
    }

    init(code: String, message: String, status: Int32) {
        self.code = code
        self.message = message
        self.status = status
    }

    init(_ error: any Error) {
        switch error {
        case let error as LifeSignalClientError:
            let status = error.serverError == nil ? Status.connection : Status.brokerOrLocal
            self.init(code: error.code, message: FlagNames.inFlagTerms(error.message), status: status)
        case CLIError.usage(let message):
            self.init(code: "usage", message: message, status: Status.usage)
        case CLIError.local(let message):
            self.init(code: "local", message: message, status: Status.brokerOrLocal)
        default:
            self.init(code: "local", message: "\(error)", status: Status.brokerOrLocal)
        }
    }

    /// Runs a command's body; what it throws becomes a `Failure`, except ArgumentParser's own errors
    /// (usage, help, an exit status already reported), which pass through.
    static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ExitCode {
            throw error
        } catch let error as ValidationError {
            throw error
        } catch let error as CleanExit {
            throw error
        } catch let error as Failure {
            throw error
        } catch {
            throw Failure(error)
        }
    }

    func report(json: Bool) {
        if json {
            Console.jsonError(["type": "error", "error": ["code": .string(code), "message": .string(message)]])
        } else {
            Console.err("error: \(code == "local" || code == "usage" ? "" : code + ": ")\(message)")
        }
    }
}
