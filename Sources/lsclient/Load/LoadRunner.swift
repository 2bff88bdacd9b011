import ArgumentParser
import LifeSignalLoad
import LifeSignalProtocol

/// Runs a scenario for a command and prints its report; shared by every `load` subcommand.
enum LoadRunner {
    static func run(globals: GlobalOptions, load: LoadOptions, scenario: LoadScenario) throws {
        try run(globals: globals, window: load.window, devices: load.devices, scenario: scenario)
    }

    static func run(globals: GlobalOptions, window: LoadWindowOptions, devices: Int, scenario: LoadScenario) throws {
        let settings = try orExit { try window.settings(globals, devices: devices) }
        let report = try orExit { try LoadRun(settings: settings, scenario: scenario, warn: { Console.err("warning: \($0)") }).execute() }
        print(json: report.json, table: report.tableLines, globals: globals)
        if let out = window.output.out {
            try orExit { try LoadRunFile(report: report, settings: settings).write(to: out) }
        }
        if let hint = report.refusalHint { Console.err("note: \(hint)") }
        if let failure = report.verificationFailure {
            Console.err("error: \(failure)")
            throw ExitCode(1)
        }
    }

    /// `body`'s value; an error it throws is printed as "error: …" and exits 1 (a load run's
    /// failures are its own, never a broker's answer to pass on).
    static func orExit<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            Console.err("error: \(error)")
            throw ExitCode(1)
        }
    }

    /// A report as one JSON document with `--json`, else as its Markdown table.
    static func print(json: JSONValue, table: [String], globals: GlobalOptions) {
        if globals.json {
            Console.json(json)
        } else {
            for line in table { Console.out(line) }
        }
    }
}
