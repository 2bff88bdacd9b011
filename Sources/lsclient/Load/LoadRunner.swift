import ArgumentParser

/// Runs a scenario for a command and prints its report; shared by every `load` subcommand.
enum LoadRunner {
    static func run(globals: GlobalOptions, load: LoadOptions, scenario: LoadScenario) throws {
        let settings: LoadSettings
        do {
            settings = try load.settings(globals)
        } catch {
            Console.err("error: \(error)")
            throw ExitCode(1)
        }
        try run(globals: globals, settings: settings, scenario: scenario)
    }

    static func run(globals: GlobalOptions, settings: LoadSettings, scenario: LoadScenario) throws {
        let report: LoadReport
        do {
            let run = try LoadRun(settings: settings, scenario: scenario)
            report = try run.execute()
        } catch {
            Console.err("error: \(error)")
            throw ExitCode(1)
        }
        if globals.json {
            Console.json(report.json)
        } else {
            for line in report.tableLines { Console.out(line) }
        }
        if let failure = report.verificationFailure {
            Console.err("error: \(failure)")
            throw ExitCode(1)
        }
    }
}
