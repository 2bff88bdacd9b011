#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// CPU and memory of this process (getrusage) and of another one (/proc, Linux only), so a
/// benchmark on a shared machine can report both sides' cost (ARCHITECTURE.md, "One process").
package enum ProcessUsage {
    package static func ownCPU() -> CPUTime {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return CPUTime(user: seconds(usage.ru_utime), system: seconds(usage.ru_stime))
    }

    /// utime and stime of `pid` from /proc/PID/stat (fields 14 and 15, in clock ticks), or nil.
    package static func cpu(pid: Int32) -> CPUTime? {
        guard let text = readFile("/proc/\(pid)/stat"),
              // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
              let close = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // fields[0] is field 3 (state), so field N is fields[N - 3].
        guard fields.count > 12, let utime = Double(fields[11]), let stime = Double(fields[12]) else { return nil }
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        return CPUTime(user: utime / ticks, system: stime / ticks)
    }

    /// VmRSS of `pid` in KiB from /proc/PID/status, or nil.
    package static func residentKiB(pid: Int32) -> Int? {
        statusKiB(pid: pid, field: "VmRSS:")
    }

    /// RssAnon of `pid` in KiB: the resident part of its heap and other private memory, without
    /// file-backed pages (its code, mapped files) that the first requests fault in once.
    package static func anonymousKiB(pid: Int32) -> Int? {
        statusKiB(pid: pid, field: "RssAnon:")
    }

    private static func statusKiB(pid: Int32, field: String) -> Int? {
        guard let text = readFile("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }

    /// The bytes `pid` caused to be written to storage (`write_bytes` of /proc/PID/io: its WAL,
    /// database and checkpoint writes, not what stayed in the page cache unflushed), or nil.
    package static func storageWrittenBytes(pid: Int32) -> UInt64? {
        guard let text = readFile("/proc/\(pid)/io") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("write_bytes:") {
            return line.split(separator: " ").dropFirst().first.flatMap { UInt64($0) }
        }
        return nil
    }

    private static func seconds(_ time: timeval) -> Double {
        Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }

    /// A small file read whole (procfs files report size 0, so read until EOF).
    private static func readFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
