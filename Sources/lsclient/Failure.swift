import ArgumentParser
import LifeSignalClient

/// Turns an error into lsclient's report and exit status: "error: <code>: <message>" on stderr;
/// 1 for the broker's errors and local ones, 2 when the broker could not be reached or the
/// connection failed.
enum Failure {
    static func reporting(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch {
            throw exitCode(for: error)
        }
    }

    static func exitCode(for error: any Error) -> any Error {
        switch error {
        case let error as LifeSignalClientError:
            Console.err("error: \(error.code): \(error.message)")
            return ExitCode(error.serverError == nil ? 2 : 1)
        case let error as CLIError:
            Console.err("error: \(error)")
            return ExitCode(1)
        case is ExitCode, is ValidationError, is CleanExit:
            return error
        default:
            Console.err("error: \(error)")
            return ExitCode(1)
        }
    }
}
