import Foundation
import LifeSignalProtocol
import Testing

/// The parser recurses once per nesting level, and so do `==`, `serialized()` and deallocation of the
/// value; the 64-level limit is what keeps a peer from overflowing the stack of the thread that reads
/// its frames. These run that deepest document on a thread with a small stack.
@Suite("JSON nesting and the stack")
struct NestingTests {
    /// Half a MiB: macOS's default for secondary threads, a sixteenth of Linux's usual 8 MiB.
    static let smallStack = 512 * 1024

    static func onSmallStack(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.stackSize = smallStack
        thread.start()
        done.wait()
    }

    static func nested(_ depth: Int) -> [UInt8] {
        let arrays = String(repeating: "[", count: depth / 2) + String(repeating: "]", count: depth / 2)
        let objects = String(repeating: #"{"a":"#, count: depth - depth / 2) + arrays
            + String(repeating: "}", count: depth - depth / 2)
        return Array(#"{"op":"keepalive","x":"#.utf8) + Array(objects.utf8) + Array("}".utf8)
    }

    @Test func theDeepestAcceptedRequestFitsASmallStack() {
        Self.onSmallStack {
            // The request object itself is one level.
            let body = Self.nested(63)
            let request = try? Request.parse(body)
            #expect(request?.op == "keepalive")
            let again = request.flatMap { try? Request.parse($0.json.serialized()) }
            #expect(again?.fields == request?.fields)
        }
    }

    @Test(arguments: [64, 10_000, 1_000_000])
    func deeperIsBadJSONWithoutARid(depth: Int) {
        Self.onSmallStack {
            var body = Self.nested(depth)
            body.insert(contentsOf: Array(#""rid":1,"#.utf8), at: 1)
            let error = #expect(throws: RequestParseError.self) { try Request.parse(body) }
            #expect(error?.error.code == .badJSON)
            #expect(error?.rid == nil)
        }
    }
}
