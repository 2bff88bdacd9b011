import LifeSignalFuzzing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Fuzzes the protocol code with the harness of LifeSignalFuzzing. Built normally it runs a seeded
/// random run; built by bench/fuzz.sh with -D LIFESIGNAL_LIBFUZZER it is a libFuzzer binary.
@main
struct LSFuzz {
    static let usage = """
        usage: lsfuzz [--runs N] [--seed S]   mutate the seed corpus N times (default 1000000), check each
               lsfuzz [libFuzzer flags] DIR…  built by bench/fuzz.sh: libFuzzer instead
               lsfuzz check FILE…             check each file as one input (a libFuzzer crash file, say)
               lsfuzz write-seeds DIR         write the seed corpus, one file per seed
        """

    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "check":
            check(Array(arguments.dropFirst()))
        case "write-seeds" where arguments.count == 2:
            writeSeeds(to: arguments[1])
        case "-h", "--help":
            print(usage)
        default:
            #if LIFESIGNAL_LIBFUZZER
            LibFuzzer.run()
            #else
            seededRun(arguments)
            #endif
        }
    }

    static func fail(_ message: String) -> Never {
        let line = message + "\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(2)
    }
}
