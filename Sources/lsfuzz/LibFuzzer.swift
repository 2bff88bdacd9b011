#if LIFESIGNAL_LIBFUZZER
import LifeSignalFuzzing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libFuzzer's driver, linked in by -sanitize=fuzzer. Declared by hand: its header is not on the
/// search path, and its C signature (two pointers and a C function pointer) bridges directly.
@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Only in bench/fuzz.sh's build (-sanitize=fuzzer -D LIFESIGNAL_LIBFUZZER): SwiftPM gives an
/// executable its own `main`, so instead of libFuzzer's `main` this hands the arguments to libFuzzer.
enum LibFuzzer {
    static func run() -> Never {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv, { data, size in
            do {
                try FuzzHarness.check(UnsafeRawBufferPointer(start: data, count: size))
            } catch {
                // libFuzzer reports the abort as a crash and saves the input.
                let message = "lsfuzz: invariant broken: \(error)\n"
                _ = message.withCString { write(2, $0, strlen($0)) }
                abort()
            }
            return 0
        }))
    }
}
#endif
